/* Deep recursion through functions optimised for size, whose entries call
 * the runtime's __rsb_count_call (test/e2e/compact-entries.test): each
 * call is counted, so the program refills no more often than the model
 * checker's exact counter. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long walk(long n) {
  if (n <= 1)
    return 1;
  return walk(n - 1) + walk(n - 2) % 3;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 20;
  printf("walk(%ld) = %ld\n", n, walk(n));
  return 0;
}
