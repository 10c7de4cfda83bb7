// Inline assembly calls an instrumented function by its own name and by
// its tail alias, not through its accounting entry: the calls are not
// counted, and target's checked returns spend credit that no call gave,
// which can only make a refill come early.
#include <stdio.h>

__attribute__((noinline, used)) long target(long x) { return x * 2 + 1; }

__attribute__((noinline)) long via_asm(long x) {
  long r;
  __asm__ volatile("call target\n\t"
                   "movq %%rax, %%rdi\n\t"
                   "call __rsb_tail.target"
                   : "=a"(r), "+D"(x)
                   :
                   : "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory",
                     "cc");
  return r;
}

int main(void) {
  printf("%ld\n", via_asm(20));
  return 0;
}
