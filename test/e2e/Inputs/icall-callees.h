/* Callees of test/e2e/shared-indirect-call.test, one copy built plain
 * (icall-plain.c, PREFIX plain_) and one instrumented (icall-main.c, PREFIX
 * inst_): each kind of argument and result that a call through
 * __rsb_icall_r11 must carry unchanged, on both of its paths. None takes an
 * argument on the stack (those calls keep the check in place). */
#include <complex.h>
#include <stdarg.h>

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NAME(n) CAT(PREFIX, n)

struct icall_pair {
  long a, b;
};
struct icall_big {
  long v[8];
};

__attribute__((noinline)) long NAME(ints)(long a, long b, long c, long d,
                                          long e, long f) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

__attribute__((noinline)) double NAME(doubles)(double a, double b, double c,
                                               double d, double e, double f,
                                               double g, double h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

/* Variadic: %al says how many vector registers carry arguments. The
 * weights catch arguments that arrive in the wrong order. */
__attribute__((noinline)) double NAME(vsum)(const char *types, ...) {
  va_list ap;
  double sum = 0, weight = 1;
  va_start(ap, types);
  for (const char *t = types; *t; t++, weight *= 2)
    sum += weight * (*t == 'd' ? va_arg(ap, double) : va_arg(ap, long));
  va_end(ap);
  return sum;
}

/* Returned in %rax:%rdx. */
__attribute__((noinline)) struct icall_pair NAME(pair)(long x) {
  struct icall_pair p = {x * 3, -x};
  return p;
}

/* Returned in %st0. */
__attribute__((noinline)) long double NAME(ldouble)(long x) {
  return (long double)x / 3.0L;
}

/* Returned in %xmm0:%xmm1. */
__attribute__((noinline)) _Complex double NAME(cdouble)(double re, double im) {
  return __builtin_complex(re * 2, im * 3);
}

/* Returned through the sret pointer in %rdi, which comes back in %rax. */
__attribute__((noinline)) struct icall_big NAME(big)(long x) {
  struct icall_big b;
  for (int i = 0; i < 8; i++)
    b.v[i] = x * (i + 1);
  return b;
}
