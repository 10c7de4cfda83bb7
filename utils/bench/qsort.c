/* qsort: libc qsort with a comparator.
 *
 * Every comparison is a call from uninstrumented libc back into
 * instrumented code through a pointer: never counted, but its return goes
 * through the thunk. Usage: qsort [ELEMENTS]; sorts that many pseudo-random
 * ints in chunks of 100000 and prints a checksum of the sorted chunks. */
#include <stdio.h>
#include <stdlib.h>

#define CHUNK 100000

static int compare(const void *a, const void *b) {
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 3000000;
  unsigned *v = malloc(CHUNK * sizeof *v);
  unsigned seed = 12345;
  unsigned long sum = 0;
  if (!v)
    return 1;
  for (long done = 0; done < n; done += CHUNK) {
    long len = n - done < CHUNK ? n - done : CHUNK;
    for (long i = 0; i < len; i++)
      v[i] = seed = seed * 1103515245u + 12345u;
    qsort(v, (size_t)len, sizeof *v, compare);
    for (long i = 0; i < len; i++)
      sum = sum * 31 + v[i];
  }
  printf("qsort %ld: %lu\n", n, sum);
  free(v);
  return 0;
}
