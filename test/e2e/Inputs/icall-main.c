/* Instrumented calls through __rsb_icall_r11
 * (test/e2e/shared-indirect-call.test): each callee of icall-callees.h,
 * instrumented (the copy counts the call and jumps) and plain (the copy calls
 * it from its own frame and resets), must get its arguments and give back its
 * result; the counter must be back to its value before a counted call and reset
 * after an uncounted one; and a plain callee's callbacks into instrumented
 * code, 40 deep, must leave no instrumented return to underflow, also when
 * argv[2] plain frames return after the callback. The pointers are set at run
 * time, so no call is devirtualised and none starts out as a C library function
 * (those keep the check in place). */
#include <rsb_stuff.h>
#include <stdio.h>
#include <stdlib.h>

#define PREFIX inst_
#include "icall-callees.h"

#define DECLARE(n) __typeof__(inst_##n) plain_##n;
DECLARE(ints)
DECLARE(doubles)
DECLARE(vsum)
DECLARE(pair)
DECLARE(ldouble)
DECLARE(cdouble)
DECLARE(big)
int plain_callback(int (*cb)(int), int n);
int plain_odd(int (*even)(int), int n);
int plain_nested(int (*cb)(int), int depth, int n);

static long (*volatile p_ints)(long, long, long, long, long, long);
static double (*volatile p_doubles)(double, double, double, double, double,
                                    double, double, double);
static double (*volatile p_vsum)(const char *, ...);
static struct icall_pair (*volatile p_pair)(long);
static long double (*volatile p_ldouble)(long);
static _Complex double (*volatile p_cdouble)(double, double);
static struct icall_big (*volatile p_big)(long);
static int (*volatile p_abs)(int);
static int (*volatile p_callback)(int (*)(int), int);
static int (*volatile p_odd)(int (*)(int), int);
static int (*volatile p_nested)(int (*)(int), int, int);

/* What the call did to the counter: "kept" (counted, and its return
 * took the count back), "reset" (uncounted, then RSB_DEPTH_INIT), or
 * anything else. Only meaningful below the caller's entry, where the
 * counter is not RSB_DEPTH_INIT already. */
static const char *effect(uint64_t before, uint64_t after) {
  if (before == RSB_DEPTH_INIT)
    return "ambiguous";
  if (after == before)
    return "kept";
  if (after == RSB_DEPTH_INIT)
    return "reset";
  return "other";
}

/* Each call is measured in a frame of its own: the counter is then one
 * entry's shift below RSB_DEPTH_INIT, never RSB_DEPTH_INIT itself, whatever
 * the printf before it left. */
static const char *eff;
static volatile int taken = 1;
#ifdef COLD_SITES
/* The static estimate calls the call's block cold: under the default
 * -x86-rsb-stuff-shared-mark-check=cold, the site is shared. */
#define SITE_EXPECTED 0
#else
#define SITE_EXPECTED 1
#endif
#define MEASURED(T, name, params, args)                                        \
  __attribute__((noinline)) static T measured_##name params {                  \
    T r;                                                                       \
    __builtin_memset(&r, 0, sizeof r);                                         \
    uint64_t before = rsb_depth_read();                                        \
    if (__builtin_expect(taken, SITE_EXPECTED))                                \
      r = p_##name args;                                                       \
    eff = effect(before, rsb_depth_read());                                    \
    return r;                                                                  \
  }
MEASURED(long, ints, (void), (1, 2, 3, 4, 5, 6))
MEASURED(double, doubles, (void), (1.5, 2, 3, 4, 5, 6, 7, 8.25))
MEASURED(double, vsum, (void),
         ("iiiiidddddddd", 1L, -2L, 3L, 1L << 20, 5L, 0.5, 1.5, 2.5, 3.5, 4.5,
          5.5, 6.5, 7.25))
MEASURED(struct icall_pair, pair, (void), (14))
MEASURED(long double, ldouble, (void), (10))
MEASURED(_Complex double, cdouble, (void), (1.25, -2.5))
MEASURED(struct icall_big, big, (void), (3))
MEASURED(int, abs, (void), (-42))

__attribute__((noinline)) static void run(const char *kind) {
  long i = measured_ints();
  printf("%s ints: %ld %s\n", kind, i, eff);
  double d = measured_doubles();
  printf("%s doubles: %g %s\n", kind, d, eff);
  double v = measured_vsum();
  printf("%s vsum: %.2f %s\n", kind, v, eff);
  struct icall_pair p = measured_pair();
  printf("%s pair: %ld %ld %s\n", kind, p.a, p.b, eff);
  long double ld = measured_ldouble();
  printf("%s ldouble: %.18Lf %s\n", kind, ld, eff);
  _Complex double c = measured_cdouble();
  printf("%s cdouble: %g %g %s\n", kind, creal(c), cimag(c), eff);
  struct icall_big b = measured_big();
  printf("%s big: %ld %ld %ld %s\n", kind, b.v[0], b.v[4], b.v[7], eff);
}

/* Instrumented recursion the plain callee calls back into: its returns
 * refill, and the plain callee's returns then drain the RSB. */
__attribute__((noinline)) static int deep(int n) {
  int r = n > 0 ? deep(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) static int even(int n) {
  int r = n > 0 ? p_odd(even, n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  int plain_depth = argc > 2 ? atoi(argv[2]) : 0;
  rsb_depth_reset();

  p_ints = inst_ints;
  p_doubles = inst_doubles;
  p_vsum = inst_vsum;
  p_pair = inst_pair;
  p_ldouble = inst_ldouble;
  p_cdouble = inst_cdouble;
  p_big = inst_big;
  run("inst");

  p_ints = plain_ints;
  p_doubles = plain_doubles;
  p_vsum = plain_vsum;
  p_pair = plain_pair;
  p_ldouble = plain_ldouble;
  p_cdouble = plain_cdouble;
  p_big = plain_big;
  run("plain");

  p_abs = abs;
  int a = measured_abs();
  printf("libc abs: %d %s\n", a, eff);

  p_callback = plain_callback;
  printf("callback: %d\n", p_callback(deep, depth));
  p_nested = plain_nested;
  printf("nested callback: %d\n",
         p_nested(deep, plain_depth, depth) - plain_depth);
  p_odd = plain_odd;
  printf("ping-pong: %d\n", even(depth));
  return 0;
}
