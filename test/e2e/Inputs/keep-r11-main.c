// Calls keeps_all() through its accounting entry with a sentinel in %r11,
// as a caller that relies on no_caller_saved_registers may, and checks the
// sentinel survives the prefix, the function and its return.
#include <stdio.h>

long call_eleventh(void);

int main(void) {
  long counter = 0, r11 = 0;
  __asm__ volatile("movq $0x5a5a5a5a, %%r11\n\t"
                   "leaq %1, %%rdi\n\t"
                   "call __rsb_entry.keeps_all@PLT\n\t"
                   "movq %%r11, %0"
                   : "=r"(r11), "+m"(counter)
                   :
                   : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
                     "r11", "memory", "cc");
  printf("counter=%ld r11=%#lx eleventh=%ld\n", counter, r11,
         call_eleventh());
  return r11 == 0x5a5a5a5a ? 0 : 1;
}
