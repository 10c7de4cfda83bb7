/* One sequence of each kind rsb-verify --sizes counts, in a program. */
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) int leaf(int x) { return x + 1; }

__attribute__((noinline)) int returns(int x, int (*f)(int)) {
  int r = leaf(x);
  if (__builtin_expect(r == 0, 0)) {
    r = f(x) + leaf(r); /* cold: an unchecked indirect call */
    return r - 1;
  }
  r += f(r);            /* hot: the mark check */
  return r + (int)strlen(getenv("HOME") ? "a" : "bb"); /* a cap */
}

int main(int argc, char **argv) {
  (void)argv;
  return returns(argc, leaf) == 1000;
}
