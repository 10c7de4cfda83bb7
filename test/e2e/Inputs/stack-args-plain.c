// Built WITHOUT rsb-stuff: callees with arguments on the stack and in
// registers, which instrumented code reaches through rsb-ld's fallbacks or
// plainly. Each result depends on every argument and its position.
#include <stdarg.h>

struct big { long a, b, c; };

long sum6(long a, long b, long c, long d, long e, long f) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

long sum8(long a, long b, long c, long d, long e, long f, long g, long h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

double dsum9(double a, double b, double c, double d, double e, double f,
             double g, double h, double i) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i;
}

long by_value(struct big s, long x) { return s.a + 2 * s.b + 3 * s.c + 4 * x; }

long double scale(long double x, long y) { return x * y; }

long vsum(int n, ...) {
  va_list ap;
  long s = 0;
  va_start(ap, n);
  for (int i = 1; i <= n; i++)
    s += i * va_arg(ap, long);
  va_end(ap);
  return s;
}
