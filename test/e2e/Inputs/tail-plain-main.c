/* Every level of a 40-deep recursion ends with a tail call into plain code
 * through a pointer: the plain `ret` that then ends each counted call must
 * be accounted, or 40 such returns in a row underflow the RSB. */
#include <stdio.h>

int plain_identity(int x);
int (*volatile tail_target)(int) = plain_identity;

__attribute__((noinline)) int recurse(int n) {
  if (n == 0)
    return 0;
  int r = recurse(n - 1) + 1;
  return tail_target(r); /* an indirect tail call */
}

int main(void) {
  printf("depth=%d\n", recurse(40));
  return 0;
}
