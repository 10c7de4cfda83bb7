// Recursion through calls into the C library: strcoll and strlen (leaves,
// whose records need no cap), free (depth 8: capped) and malloc (depth 8
// once the allocator is initialised: capped; unbounded before: reset). Each level keeps its block until its callee returned, so neither
// call can be optimised away (the block escapes through Sink).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *volatile A = "abc", *volatile B = "abd";
char *volatile Sink;

__attribute__((noinline)) int walk(int n) {
  if (n == 0)
    return 0;
  char *p = malloc(16);
  Sink = p;
  int r = strcoll(A, B) + (int)strlen(A) + walk(n - 1);
  free(p);
  return r + 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  int sum = 0;
  for (int i = 0; i < 20; ++i)
    sum += walk(depth);
  printf("sum=%d\n", sum);
  return 0;
}
