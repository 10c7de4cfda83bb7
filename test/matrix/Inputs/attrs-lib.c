// flags-matrix program attrs, the shared library: a recursion with the
// attribute that calls back into the executable's plain code.
#include "attrs.h"

SPECIAL int lib_leaf(int x) { return x + 1000; }

SPECIAL int lib_special(int n, int (*plain)(int)) {
  if (n == 0)
    return plain(20) + lib_leaf(1);
  int r = lib_special(n - 1, plain);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
