/* Calls a small function N times (argv[1]) while a 20 us interval timer
 * runs the plain handler of signal-plain-handler.c
 * (test/e2e/signal-plain-handler-helper-ret.test). Built at -Os, every
 * call goes through the entry's `call __rsb_count_call` and every return
 * through __rsb_return_thunk. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>

void on_alarm(int);
volatile int sink;

__attribute__((noinline)) int tiny(int n) {
  sink = n;
  return n + 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  signal(SIGALRM, on_alarm);
  struct itimerval it = {{0, 20}, {0, 20}};
  setitimer(ITIMER_REAL, &it, 0);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += tiny(i);
  it.it_value.tv_usec = it.it_interval.tv_usec = 0;
  setitimer(ITIMER_REAL, &it, 0);
  printf("%ld\n", s);
  return 0;
}
