// A signal handled in the middle of a refill: traced() sets the trap flag
// before it returns, so every instruction from there on raises SIGTRAP. The
// handler (installed with sigaction, so the runtime's wrapper resets the
// counter when it starts and ends) lets the trace run until the refill's
// second `call` has pushed its entry, then clears the trap flag. The refill
// goes on without traps; main then reads the counter: the reset of the
// handler's exit must still be there, not the refill's credit.
#define _GNU_SOURCE // REG_RIP, REG_RSP, REG_EFL
#include "rsb_stuff.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

#define TRAP_FLAG 0x100
#define INT3 0xcc

static volatile int fill_calls_seen, steps;

// After a call of the fill, the return address points at the int3 that
// follows the call and execution continues right behind that int3.
static int just_called_into_fill(const ucontext_t *uc) {
  const unsigned char *rip = (const unsigned char *)uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t ret = *(const uintptr_t *)uc->uc_mcontext.gregs[REG_RSP];
  return ret + 1 == (uintptr_t)rip && rip[-1] == INT3;
}

static void on_trap(int sig, siginfo_t *info, void *context) {
  (void)sig;
  (void)info;
  ucontext_t *uc = context;
  ++steps;
  if (just_called_into_fill(uc))
    ++fill_calls_seen;
  if (fill_calls_seen == 2 || steps > 1000)
    uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
}

// The first trap comes after the instruction that follows popfq: the nop,
// so that the handler's reset is in place before the return's shift,
// whether the return checks in place or jumps to the thunk.
__attribute__((noinline)) void traced(void) {
  __asm__ volatile("pushfq\n\t"
                   "orq %0, (%%rsp)\n\t"
                   "popfq\n\t"
                   "nop" ::"i"(TRAP_FLAG)
                   : "memory", "cc");
}

int main(void) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_sigaction = on_trap;
  act.sa_flags = SA_SIGINFO;
  sigaction(SIGTRAP, &act, NULL);
  traced();
  uint64_t depth = rsb_depth_read();
  printf("fill calls seen=%d depth=0x%016llx\n", fill_calls_seen,
         (unsigned long long)depth);
  return 0;
}
