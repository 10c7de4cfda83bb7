// flags-matrix program dso, the executable: calls into the shared library,
// which calls back (through a pointer and by name) into deep recursions
// here.
#include <stdio.h>

int lib_walk(int n, int (*callback)(int));
int lib_square(int x);

__attribute__((noinline)) int main_visit(int depth) {
  if (depth == 0)
    return 0;
  int r = main_visit(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) static int callback(int depth) {
  return main_visit(depth) + lib_square(depth);
}

int main(void) {
  printf("walk=%d\n", lib_walk(20, callback));
  printf("square=%d\n", lib_square(12));
  return 0;
}
