// flags-matrix program c-basic: direct calls, a static function, recursion
// 40 deep, calls through function pointers; exits with a status of its own
// so that the comparison with plain clang covers it.
#include <stdio.h>

typedef int (*binop)(int, int);

__attribute__((noinline)) static int add(int a, int b) { return a + b; }

__attribute__((noinline)) int mul(int a, int b) { return a * b; }

__attribute__((noinline)) int depth(int n) {
  if (n == 0)
    return 0;
  int r = depth(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int fold(const binop *ops, int count, int x) {
  for (int i = 0; i < count; i++)
    x = ops[i](x, i + 2);
  return x;
}

int main(void) {
  binop ops[] = {add, mul, add, mul};
  printf("depth=%d\n", depth(40));
  printf("fold=%d\n", fold(ops, 4, 1));
  printf("add=%d mul=%d\n", add(2, 3), mul(4, 5));
  return 5;
}
