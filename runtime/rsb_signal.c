//===- rsb_signal.c - Signal handlers start and end with no call credit ---===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// A signal handler is entered from the kernel, not by a call, and the
// kernel's own calls on the way may have consumed the Return Stack Buffer
// entries that the interrupted code's counter still counts on; when the
// handler returns, the handler's calls and the kernel's sigreturn path may
// have done the same to the interrupted code. Like the kernel's
// RESET_CALL_DEPTH on entry, the runtime therefore resets the counter to
// RSB_DEPTH_INIT (no credit: the next return without a counted call refills
// the RSB) when a handler starts and again when it ends; the same value as
// __rsb_reset_depth (rsb_thunks.S).
//
// It does so by interposing sigaction() and signal(): the kernel is given
// rsb_signal_entry, which resets the counter and calls the program's
// handler. The definitions live in the executable's runtime (exported by
// rsb-clang so that shared objects use them too); glibc's own entry point
// __sigaction does the real work. Handlers installed by other means (a raw
// rt_sigaction system call) are not covered; see docs/security.md.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE // sighandler_t
#include "rsb_stuff.h"

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>

#define RSB_TLS __thread __attribute__((tls_model("initial-exec")))

extern RSB_TLS uint64_t __rsb_depth;
extern int __sigaction(int, const struct sigaction *, struct sigaction *);

// The program's handler for each signal and whether it takes siginfo.
static _Atomic(void *) user_handler[NSIG];
static atomic_int user_wants_info[NSIG];

static void rsb_clear_credit(void) {
  // Relaxed against the signal being handled: the counter is thread-local.
  *(volatile uint64_t *)&__rsb_depth = RSB_DEPTH_INIT;
#ifdef RSB_STATS
  extern RSB_TLS struct rsb_stats __rsb_stats;
  __rsb_stats.resets++;
#endif
}

static void rsb_signal_entry(int sig, siginfo_t *info, void *context) {
  rsb_clear_credit();
  void *handler = atomic_load(&user_handler[sig]);
  if (atomic_load(&user_wants_info[sig]))
    ((void (*)(int, siginfo_t *, void *))handler)(sig, info, context);
  else
    ((void (*)(int))handler)(sig);
  rsb_clear_credit();
}

static int is_real_handler(const struct sigaction *act) {
  void *h = (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction
                                         : (void *)act->sa_handler;
  return h != (void *)SIG_DFL && h != (void *)SIG_IGN;
}

struct user_action {
  void *handler;
  int wants_info;
};

static struct user_action current_user_action(int sig) {
  return (struct user_action){atomic_load(&user_handler[sig]),
                              atomic_load(&user_wants_info[sig])};
}

// Reports the program's handler where the kernel had rsb_signal_entry.
static void unwrap(struct sigaction *old, struct user_action previous) {
  if (!old || !(old->sa_flags & SA_SIGINFO) ||
      old->sa_sigaction != rsb_signal_entry)
    return;
  if (previous.wants_info) {
    old->sa_sigaction = (void (*)(int, siginfo_t *, void *))previous.handler;
  } else {
    old->sa_flags &= ~SA_SIGINFO;
    old->sa_handler = (void (*)(int))previous.handler;
  }
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  if (sig <= 0 || sig >= NSIG)
    return __sigaction(sig, act, old);
  struct user_action previous = current_user_action(sig);
  if (!act || !is_real_handler(act)) {
    int rc = __sigaction(sig, act, old);
    if (rc == 0)
      unwrap(old, previous);
    return rc;
  }
  struct sigaction wrapped = *act;
  int wants_info = (act->sa_flags & SA_SIGINFO) != 0;
  // Publish the handler before the kernel can deliver to the entry.
  atomic_store(&user_wants_info[sig], wants_info);
  atomic_store(&user_handler[sig], wants_info ? (void *)act->sa_sigaction
                                              : (void *)act->sa_handler);
  wrapped.sa_flags |= SA_SIGINFO;
  wrapped.sa_sigaction = rsb_signal_entry;
  int rc = __sigaction(sig, &wrapped, old);
  if (rc == 0)
    unwrap(old, previous);
  return rc;
}

// glibc's signal(): BSD semantics, the handler stays installed.
sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART};
  struct sigaction old;
  sigemptyset(&act.sa_mask);
  if (sigaction(sig, &act, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}
