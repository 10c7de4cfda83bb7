// A recursion whose leaves call malloc and return right away: after a
// reset each leaf's return refills the RSB; after a cap that keeps some
// credit (malloc's depth 8 leaves 7 returns) it does not. The blocks
// escape through Sink, so the calls stay.
#include <stdio.h>
#include <stdlib.h>

void *volatile Sink;

__attribute__((noinline)) static int grow(int depth) {
  if (depth == 0) {
    Sink = malloc(16);
    return Sink != NULL;
  }
  return grow(depth - 1) + grow(depth - 1);
}

int main(int argc, char **argv) {
  (void)argv;
  int leaves = 0;
  for (int i = 0; i < 20 * argc; ++i)
    leaves += grow(6);
  printf("leaves=%d\n", leaves);
  return 0;
}
