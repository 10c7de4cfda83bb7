/* A thread-local variable of the program shifted right by 5 in place
 * (`sarq $5, %fs:x@tpoff`): the counter's instruction on another offset. */
#include <stdio.h>

__thread long x = 1L << 40;

__attribute__((noinline)) void shift(void) { x >>= 5; }

int main(void) {
  shift();
  printf("%ld\n", x);
  return 0;
}
