// Recursion through localeconv, which LLVM does not know as a library
// function but the depth table bounds (0): each level's call is capped
// when it reaches the C library's definition. A program may define its own
// localeconv (own-localeconv.c), which the cap must not be armed for.
#include <locale.h>
#include <stdio.h>

__attribute__((noinline)) int walk(int n) {
  if (n == 0)
    return 0;
  int r = *localeconv()->decimal_point + walk(n - 1);
  return r + 1;
}

int main(void) {
  int sum = 0;
  for (int i = 0; i < 20; ++i)
    sum += walk(40);
  printf("sum=%d\n", sum);
  return 0;
}
