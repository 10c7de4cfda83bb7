// Calls __rsb_reset_depth (through reset_with in reset-keeps-registers.S)
// with every general register set and RFLAGS set to two patterns, and
// prints each register or flag that differs after it. run_checks is in the
// module that links the .S (the executable with -DMAIN, or a shared
// library); -DMAIN_ONLY is the executable that calls the library's.
#include <stdint.h>
#include <stdio.h>

int run_checks(void);

#ifndef MAIN_ONLY
void reset_with(uint64_t flags) __attribute__((visibility("hidden")));
extern uint64_t reset_after[17] __attribute__((visibility("hidden")));

static const char *const names[17] = {
    "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp",    "r8", "r9",
    "r10", "r11", "r12", "r13", "r14", "r15", "rflags", "rsp"};

// CF PF AF ZF SF DF OF (and the reserved bit 1), then none of them.
static const uint64_t flag_patterns[2] = {0xcd7, 0x002};
// The status flags and DF: what user code can set with popfq.
static const uint64_t flag_mask = 0xcd5;

int run_checks(void) {
  int bad = 0;
  for (int p = 0; p < 2; p++) {
    reset_with(flag_patterns[p]);
    for (int i = 0; i < 15; i++) {
      uint64_t want = 0x1010101010101010ull * (uint64_t)(i + 1);
      if (reset_after[i] != want) {
        printf("pattern %d: %%%s is %#llx, not %#llx\n", p, names[i],
               (unsigned long long)reset_after[i], (unsigned long long)want);
        bad = 1;
      }
    }
    if ((reset_after[15] & flag_mask) != (flag_patterns[p] & flag_mask)) {
      printf("pattern %d: rflags is %#llx, not %#llx\n", p,
             (unsigned long long)(reset_after[15] & flag_mask),
             (unsigned long long)(flag_patterns[p] & flag_mask));
      bad = 1;
    }
    if (reset_after[16] != 0) {
      printf("pattern %d: %%rsp moved by %lld\n", p,
             (long long)reset_after[16]);
      bad = 1;
    }
  }
  return bad;
}
#endif

#if defined(MAIN) || defined(MAIN_ONLY)
int main(void) {
  int bad = run_checks();
  puts(bad ? "registers or flags changed" : "all registers and flags kept");
  return bad;
}
#endif
