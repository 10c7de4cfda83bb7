// A plain (uninstrumented) executable that calls into an instrumented
// shared library: depth from argv[1], default 40.
#include <stdio.h>
#include <stdlib.h>

int lib_nest(int n);

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  printf("lib_nest=%d\n", lib_nest(depth));
  return 0;
}
