// Sorts pseudo-random numbers with the C library's qsort: built with
// rsb-clang, compare is instrumented, but qsort calls it through a pointer,
// without its accounting entry, and each of its checked returns spends
// credit that no call gave.
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

int main(void) {
  static unsigned v[2000];
  unsigned seed = 1;
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    v[i] = seed = seed * 1103515245u + 12345u;
  qsort(v, sizeof v / sizeof *v, sizeof *v, compare);
  printf("%u %u\n", v[0], v[1999]);
  return 0;
}
