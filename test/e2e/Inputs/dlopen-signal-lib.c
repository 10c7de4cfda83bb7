// An instrumented shared object that installs signal handlers when it is
// loaded: SIGUSR1 with sigaction() and SA_SIGINFO, SIGUSR2 with signal().
#include <signal.h>
#include <string.h>

int lib_handled_usr1, lib_handled_usr2;

void lib_on_usr1(int sig, siginfo_t *info, void *context) {
  (void)context;
  if (sig == SIGUSR1 && info && info->si_signo == SIGUSR1)
    ++lib_handled_usr1;
}

void lib_on_usr2(int sig) {
  if (sig == SIGUSR2)
    ++lib_handled_usr2;
}

// Whether sigaction() reports the handlers as installed (not the runtime's
// entry that the kernel has).
int lib_reports_handlers(void) {
  struct sigaction usr1, usr2;
  if (sigaction(SIGUSR1, NULL, &usr1) || sigaction(SIGUSR2, NULL, &usr2))
    return 0;
  return (usr1.sa_flags & SA_SIGINFO) && usr1.sa_sigaction == lib_on_usr1 &&
         !(usr2.sa_flags & SA_SIGINFO) && usr2.sa_handler == lib_on_usr2;
}

__attribute__((constructor)) static void lib_install(void) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_sigaction = lib_on_usr1;
  act.sa_flags = SA_SIGINFO;
  sigaction(SIGUSR1, &act, NULL);
  signal(SIGUSR2, lib_on_usr2);
}
