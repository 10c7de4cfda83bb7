// A function whose blocks go to sections of their own
// (-fbasic-block-sections=all): its return checks sit in f.__part.N.
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) int f(int x) {
  if (__builtin_expect(x == 12345, 0)) { puts("cold"); return 7; }
  return x + 1;
}
int main(int c, char **v) { return f(c) == 2 ? 0 : 1; }
