// Instrumented calls and tail calls to the functions of stack-args-plain.c,
// built without rsb-stuff: those with stack arguments must reach them
// plainly (the fallback's frame would move their stack arguments), those
// without through the fallbacks.
#include <stdio.h>

struct big { long a, b, c; };
long sum6(long, long, long, long, long, long);
long sum8(long, long, long, long, long, long, long, long);
double dsum9(double, double, double, double, double, double, double, double,
             double);
long by_value(struct big, long);
long double scale(long double, long);
long vsum(int, ...);

volatile long v = 1;

__attribute__((noinline)) long tail6(long a, long b) {
  return sum6(b, a, 3, 4, 5, 6);
}

__attribute__((noinline)) long tail8(long a, long b, long c, long d, long e,
                                     long f, long g, long h) {
  return sum8(b, a, c, d, e, f, g, h); // g, h stay in place: a sibcall
}

int main(void) {
  long x = v;
  struct big s = {x, 2 * x, 3 * x};
  printf("sum6=%ld\n", sum6(x, 2, 3, 4, 5, 6));
  printf("sum8=%ld\n", sum8(x, 2, 3, 4, 5, 6, 7, 8));
  printf("dsum9=%g\n", dsum9(x, 2, 3, 4, 5, 6, 7, 8, 9));
  printf("by_value=%ld\n", by_value(s, 4));
  printf("scale=%Lg\n", scale(1.5L, 4 * x));
  printf("vsum2=%ld\n", vsum(2, x, 2L));
  printf("vsum8=%ld\n", vsum(8, x, 2L, 3L, 4L, 5L, 6L, 7L, 8L));
  printf("tail6=%ld\n", tail6(x, 2));
  printf("tail8=%ld\n", tail8(x, 2, 3, 4, 5, 6, 7, 8));
  return 0;
}
