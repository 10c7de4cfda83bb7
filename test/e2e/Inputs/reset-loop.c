// A loop that calls an instrumented function after each strdup(): the
// credit is cleared after every strdup() (unbounded in the C library's depth
// table: it calls malloc through the PLT) and capped after every free(), and
// the counted call and return in between balance.
// -DLOOP_LIBRARY builds the loop alone (for a shared library), -DLOOP_MAIN
// the main program alone.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int reset_loop(int n);

#ifndef LOOP_MAIN
__attribute__((noinline)) int work(char *p, int i) {
  p[0] = (char)i;
  __asm__ volatile("" ::: "memory");
  return p[0] & 1;
}

__attribute__((noinline)) int reset_loop(int n) {
  int odd = 0;
  for (int i = 0; i < n; i++) {
    char *p = strdup("fifteen letters");
    odd += work(p, i);
    free(p);
  }
  return odd;
}
#endif

#ifndef LOOP_LIBRARY
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  printf("odd=%d\n", reset_loop(n));
  return 0;
}
#endif
