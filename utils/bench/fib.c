/* fib: naive recursive Fibonacci.
 *
 * Short, shallow calls (the recursion depth is only N but most calls are
 * near the leaves): the common case of small functions called directly.
 * Usage: fib [N]; prints fib(N). */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline)) unsigned long fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 39;
  printf("fib(%u) = %lu\n", n, fib(n));
  return 0;
}
