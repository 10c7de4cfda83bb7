// Signals that arrive at any instruction: a CPU-time timer interrupts a
// deep recursion over and over, and each handler makes 30 nested calls of
// its own before it returns into the middle of the interrupted recursion.
#include <signal.h>
#include <stdio.h>
#include <sys/time.h>

static volatile sig_atomic_t handled;

__attribute__((noinline)) static int nest(int n) {
  if (n <= 1)
    return 1;
  int r = nest(n - 1);
  // Keeps the call out of tail position at -O2.
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static void on_timer(int sig) {
  (void)sig;
  handled += nest(30) == 30;
}

int main(void) {
  struct itimerval every = {{0, 200}, {0, 200}};
  signal(SIGPROF, on_timer);
  setitimer(ITIMER_PROF, &every, NULL);
  long sum = 0;
  while (handled < 20)
    sum += nest(200);
  signal(SIGPROF, SIG_IGN);
  printf("handled at least 20 signals (%s)\n", sum > 0 ? "ok" : "?");
  return 0;
}
