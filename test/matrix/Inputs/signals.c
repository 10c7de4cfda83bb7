// flags-matrix program signals: a handler, entered without a call, doing
// 40-deep calls; raised 20 frames deep, whose returns follow.
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile int handled;

__attribute__((noinline)) int climb(int depth) {
  if (depth == 0)
    return 0;
  int r = climb(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static void on_signal(int sig) { handled = climb(40) + sig; }

__attribute__((noinline)) int dive(int depth) {
  if (depth == 0) {
    raise(SIGUSR1);
    return 0;
  }
  int r = dive(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(void) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_handler = on_signal;
  sigaction(SIGUSR1, &act, NULL);
  int r = dive(20);
  printf("dive=%d handled=%d\n", r, handled - SIGUSR1);
  return 0;
}
