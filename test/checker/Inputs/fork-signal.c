// Processes and signals for rsb-check, one mode per argument:
//   signal  a SIGUSR1 handler that makes calls (entered without a call,
//           left by a ret to the signal restorer)
//   trap    an int3 whose SIGTRAP the program handles itself
//   fork    fork, the child execs /bin/true, the parent waits
//   crash   raise(SIGSEGV) with no handler
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

__attribute__((noinline)) static int nest(int n) {
  if (n <= 1)
    return 1;
  int r = nest(n - 1);
  // Keeps the call out of tail position at -O2.
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static void on_signal(int sig) {
  (void)sig;
  handled = nest(5);
}

static int fork_exec(void) {
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/true", "true", (char *)NULL);
    _exit(127);
  }
  int status = -1;
  waitpid(pid, &status, 0);
  printf("child=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "signal") == 0) {
    signal(SIGUSR1, on_signal);
    raise(SIGUSR1);
  } else if (strcmp(mode, "trap") == 0) {
    signal(SIGTRAP, on_signal);
    __asm__ volatile("int3");
  } else if (strcmp(mode, "fork") == 0) {
    return fork_exec();
  } else if (strcmp(mode, "crash") == 0) {
    raise(SIGSEGV);
  } else {
    fprintf(stderr, "usage: %s signal|trap|fork|crash\n", argv[0]);
    return 2;
  }
  printf("handled=%d\n", (int)handled);
  return 0;
}
