/* chain: a 30-deep chain of empty noinline functions, called in a loop.
 *
 * The worst case for call depth tracking: nothing but calls and returns,
 * deeper than the 12 returns of credit, so every descent costs refills.
 * Usage: chain [ITERATIONS]; prints a checksum. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long leaves;

/* The empty asm after the call keeps it a call (not a tail jump) and keeps
 * the optimizer from deleting a function without side effects. */
#define LINK(n, next)                                                          \
  static __attribute__((noinline)) void f##n(void) {                           \
    f##next();                                                                 \
    __asm__ volatile("");                                                      \
  }

static __attribute__((noinline)) void f29(void) {
  leaves++;
  __asm__ volatile("");
}
/* clang-format off */
LINK(28, 29)
LINK(27, 28)
LINK(26, 27)
LINK(25, 26)
LINK(24, 25)
LINK(23, 24)
LINK(22, 23)
LINK(21, 22)
LINK(20, 21)
LINK(19, 20)
LINK(18, 19)
LINK(17, 18)
LINK(16, 17)
LINK(15, 16)
LINK(14, 15)
LINK(13, 14)
LINK(12, 13)
LINK(11, 12)
LINK(10, 11)
LINK(9, 10)
LINK(8, 9)
LINK(7, 8)
LINK(6, 7)
LINK(5, 6)
LINK(4, 5)
LINK(3, 4)
LINK(2, 3)
LINK(1, 2)
LINK(0, 1)
/* clang-format on */

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 5000000;
  for (long i = 0; i < n; i++)
    f0();
  printf("chain %ld: %lu\n", n, leaves * 30);
  return 0;
}
