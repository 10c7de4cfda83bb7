// Instrumented: even_t tail-calls odd_t, built without rsb-stuff, through
// __rsb_tail.odd_t's fallback; odd_t calls even_t back, 40 deep. The
// deepest even_t's return refills (12 credits) and the 40 plain returns of
// odd_t then drain the RSB: the fallback frames clear the credit as each
// odd_t returns, so the instrumented returns above find no stale credit.
#include <stdio.h>
#include <stdlib.h>

int odd_t(int n);

__attribute__((noinline)) int even_t(int n) {
  if (n <= 0)
    return 0;
  return odd_t(n); // a tail call
}

__attribute__((noinline)) int run(int depth) {
  int r = even_t(depth);
  __asm__ volatile("" ::: "memory");
  return r;
}

__attribute__((noinline)) int outer(int depth) {
  int r = run(depth);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  printf("result=%d\n", outer(depth));
  return 0;
}
