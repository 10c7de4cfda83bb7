// flags-matrix program attrs, the executable: plain and attributed
// recursions calling each other, here and across the shared library.
#include "attrs.h"
#include <stdio.h>

__attribute__((noinline)) int plain_climb(int n) {
  if (n == 0)
    return 0;
  int r = plain_climb(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

SPECIAL int special_climb(int n) {
  if (n == 0)
    return plain_climb(20) + lib_leaf(2);
  int r = special_climb(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(void) {
  printf("local=%d\n", special_climb(20));
  printf("lib=%d\n", lib_special(20, plain_climb));
  return 0;
}
