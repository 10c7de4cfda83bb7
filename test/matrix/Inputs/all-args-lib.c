// flags-matrix program all-args, the shared library: a leaf and a recursion
// that uses every argument after its calls (a libc call and the recursion
// in between), each with every argument register in use.
#include "all-args.h"
#include <stdlib.h>

SPECIAL long lib_weigh(ALL_PARAMS) { return WEIGH_ALL; }

SPECIAL long lib_climb(int n, ALL_PARAMS) {
  if (n == 0)
    return lib_weigh(ALL_ARGS);
  long r = lib_climb(n - 1, ALL_ARGS) + labs(a12 - n);
  __asm__ volatile("" ::: "memory");
  return r + WEIGH_ALL;
}
