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
// handler. glibc's own entry point __sigaction does the real work. The
// definitions are reached under two names:
//  - sigaction and signal, exported by instrumented executables (rsb-clang),
//    so that the executable and every library it loads use them;
//  - __wrap_sigaction and __wrap_signal, which instrumented shared objects
//    call (rsb-clang links them with --wrap=sigaction,--wrap=signal): a
//    shared object's plain `sigaction` reference would bind to libc's, which
//    comes before librsbstuff.so in the global scope whenever the executable
//    is not instrumented (a Python extension module, a plugin).
// An instrumented executable exports both names, so a process has one table
// of handlers, whoever installs them. Handlers installed by other means (a
// raw rt_sigaction system call, sigset(), bsd_signal()) are not covered; see
// docs/security.md.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE // sighandler_t
#include "rsb_stuff.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

#define RSB_TLS __thread __attribute__((tls_model("initial-exec")))

extern RSB_TLS uint64_t __rsb_depth;
extern int __sigaction(int, const struct sigaction *, struct sigaction *);

// The program's handler for each signal, with TAKES_INFO set when it was
// installed with SA_SIGINFO (no user-space code address has bit 63 set).
// One word, so that the entry and sigaction() read handler and flag with one
// load and can never see half of an update. Written only under table_lock,
// never cleared: a signal the kernel queued for the entry before the program
// changed the action still finds a handler.
static _Atomic(uintptr_t) user_action[NSIG];
#define TAKES_INFO ((uintptr_t)1 << 63)

// Serializes sigaction() calls, so that the table and the kernel's actions
// change together and the old action reported is the one replaced: 0 when
// free, else the process ID of the holder.
static atomic_int table_owner;

typedef void (*info_handler)(int, siginfo_t *, void *);

static void rsb_clear_credit(void) {
  // Relaxed against the signal being handled: the counter is thread-local.
  *(volatile uint64_t *)&__rsb_depth = RSB_DEPTH_INIT;
#ifdef RSB_STATS
  extern RSB_TLS struct rsb_stats __rsb_stats;
  __rsb_stats.resets++;
#endif
}

// The RSB filled with entries at traps, without credit (rsb_signal_fill.S).
void __rsb_signal_fill(void) __attribute__((visibility("hidden")));

static void rsb_signal_entry(int sig, siginfo_t *info, void *context) {
  rsb_clear_credit();
  uintptr_t action =
      atomic_load_explicit(&user_action[sig], memory_order_acquire);
  // The x86-64 Linux kernel passes (sig, info, context) in %rdi, %rsi, %rdx
  // to every handler, SA_SIGINFO or not: a handler that takes only the
  // signal number ignores the other two.
  ((info_handler)(action & ~TAKES_INFO))(sig, info, context);
  rsb_clear_credit();
  __rsb_signal_fill();
}

// Held with every signal blocked: a handler that calls sigaction() on the
// thread holding the lock would otherwise spin forever. A lock held by
// another process is one that a thread of the parent held when this process
// was forked: the child has only the forking thread, which did not hold it,
// so the child takes it over. (Not pthread_atfork: it lives in
// libc_nonshared.a, whose objects carry no CET property note, and would
// take the marking of every program that links the runtime.)
static void lock_table(sigset_t *saved) {
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, saved);
  int self = getpid();
  for (;;) {
    int owner = atomic_load_explicit(&table_owner, memory_order_relaxed);
    if (owner != self && atomic_compare_exchange_weak_explicit(
                             &table_owner, &owner, self, memory_order_acquire,
                             memory_order_relaxed))
      return;
    sched_yield();
  }
}

static void unlock_table(const sigset_t *saved) {
  atomic_store_explicit(&table_owner, 0, memory_order_release);
  pthread_sigmask(SIG_SETMASK, saved, NULL);
}

static int is_real_handler(const struct sigaction *act) {
  void *h = (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction
                                         : (void *)act->sa_handler;
  return h != (void *)SIG_DFL && h != (void *)SIG_IGN;
}

static uintptr_t action_of(const struct sigaction *act) {
  if (act->sa_flags & SA_SIGINFO)
    return (uintptr_t)act->sa_sigaction | TAKES_INFO;
  return (uintptr_t)act->sa_handler;
}

// Reports the program's handler where the kernel had rsb_signal_entry.
static void unwrap(struct sigaction *old, uintptr_t previous) {
  if (!old || !(old->sa_flags & SA_SIGINFO) ||
      old->sa_sigaction != rsb_signal_entry)
    return;
  if (previous & TAKES_INFO) {
    old->sa_sigaction = (info_handler)(previous & ~TAKES_INFO);
  } else {
    old->sa_flags &= ~SA_SIGINFO;
    old->sa_handler = (void (*)(int))previous;
  }
}

// The table entry is published before the kernel can deliver to the entry
// with it, and put back when the kernel refuses the action (SIGKILL,
// SIGSTOP, glibc's internal signals): the kernel never has the entry for
// those, so the new handler is never seen in between.
static int wrapped_sigaction(int sig, const struct sigaction *act,
                             struct sigaction *old) {
  uintptr_t previous =
      atomic_load_explicit(&user_action[sig], memory_order_relaxed);
  if (!act || !is_real_handler(act)) {
    int rc = __sigaction(sig, act, old);
    if (rc == 0)
      unwrap(old, previous);
    return rc;
  }
  struct sigaction wrapped = *act;
  wrapped.sa_flags |= SA_SIGINFO;
  wrapped.sa_sigaction = rsb_signal_entry;
  atomic_store_explicit(&user_action[sig], action_of(act),
                        memory_order_release);
  int rc = __sigaction(sig, &wrapped, old);
  if (rc == 0)
    unwrap(old, previous);
  else
    atomic_store_explicit(&user_action[sig], previous, memory_order_release);
  return rc;
}

static int locked_sigaction(int sig, const struct sigaction *act,
                            struct sigaction *old) {
  if (sig <= 0 || sig >= NSIG)
    return __sigaction(sig, act, old);
  sigset_t saved;
  lock_table(&saved);
  int rc = wrapped_sigaction(sig, act, old);
  unlock_table(&saved);
  return rc;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
  return locked_sigaction(sig, act, old);
}

// glibc's signal(): BSD semantics, the handler stays installed. It calls
// this copy's sigaction directly: by name, librsbstuff.so's call would bind
// to libc's whenever the executable does not define sigaction.
sighandler_t signal(int sig, sighandler_t handler) {
  struct sigaction act = {.sa_handler = handler, .sa_flags = SA_RESTART};
  struct sigaction old;
  sigemptyset(&act.sa_mask);
  if (locked_sigaction(sig, &act, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}

// What instrumented shared objects call (linked with --wrap).
int __wrap_sigaction(int, const struct sigaction *, struct sigaction *)
    __attribute__((alias("sigaction")));
sighandler_t __wrap_signal(int, sighandler_t) __attribute__((alias("signal")));
