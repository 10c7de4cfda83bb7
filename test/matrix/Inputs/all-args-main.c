// flags-matrix program all-args, the executable: the same shapes here, a
// tail call with every argument, and calls into the shared library, with
// arguments the compiler cannot fold.
#include "all-args.h"
#include <stdio.h>

static volatile long in[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
static volatile double fin[8] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5};

SPECIAL long weigh(ALL_PARAMS) { return WEIGH_ALL; }

SPECIAL long climb(int n, ALL_PARAMS) {
  if (n == 0)
    return weigh(ALL_ARGS) + lib_weigh(ALL_ARGS);
  long r = climb(n - 1, ALL_ARGS);
  __asm__ volatile("" ::: "memory");
  return r + WEIGH_ALL;
}

// Every argument passed on as it came: a tail call.
SPECIAL long forward(ALL_PARAMS) { return lib_weigh(ALL_ARGS); }

int main(void) {
  long a1 = in[0], a2 = in[1], a3 = in[2], a4 = in[3], a5 = in[4],
       a6 = in[5], a7 = in[6], a8 = in[7], a9 = in[8], a10 = in[9],
       a11 = in[10], a12 = in[11];
  double d1 = fin[0], d2 = fin[1], d3 = fin[2], d4 = fin[3], d5 = fin[4],
         d6 = fin[5], d7 = fin[6], d8 = fin[7];
  printf("local=%ld\n", climb(20, ALL_ARGS));
  printf("lib=%ld\n", lib_climb(20, ALL_ARGS));
  printf("forward=%ld\n", forward(ALL_ARGS));
  return 0;
}
