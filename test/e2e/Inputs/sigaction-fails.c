// sigaction() and signal() calls that the kernel or libc refuse fail as
// they do without rsb-stuff, with EINVAL, and leave every handler as it
// was: the one installed for SIGUSR1 before still runs and is reported.
#define _GNU_SOURCE // sighandler_t
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int handled;

static void on_usr1(int sig, siginfo_t *info, void *context) {
  (void)context;
  handled += sig == SIGUSR1 && info->si_signo == SIGUSR1;
}

static void on_other(int sig) { (void)sig; }

static void refused(int sig) {
  struct sigaction act, old;
  memset(&act, 0, sizeof act);
  act.sa_handler = on_other;
  errno = 0;
  int rc = sigaction(sig, &act, &old);
  int error = errno;
  errno = 0;
  sighandler_t previous = signal(sig, on_other);
  printf("signal %d: sigaction=%d %s, signal %s %s\n", sig, rc,
         error == EINVAL ? "EINVAL" : "other", previous == SIG_ERR ? "SIG_ERR"
                                                                   : "other",
         errno == EINVAL ? "EINVAL" : "other");
}

int main(void) {
  struct sigaction act, now;
  memset(&act, 0, sizeof act);
  act.sa_sigaction = on_usr1;
  act.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &act, NULL);
  refused(SIGKILL);
  refused(SIGSTOP);
  refused(0);
  refused(NSIG);
  refused(SIGRTMIN - 1); // glibc's own (SIGSETXID)
  sigaction(SIGKILL, NULL, &now);
  printf("SIGKILL: %s\n", now.sa_handler == SIG_DFL ? "SIG_DFL" : "changed");
  raise(SIGUSR1);
  sigaction(SIGUSR1, NULL, &now);
  printf("SIGUSR1: handled=%d reported=%s\n", handled,
         (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_usr1 ? "yes"
                                                                    : "no");
  return 0;
}
