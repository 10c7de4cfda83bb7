// flags-matrix program all-args: functions with the calling convention
// ATTR (given by the row, e.g. -DATTR=preserve_none) that take 12 integer
// and 8 floating-point arguments, so that every argument register of every
// x86-64 convention carries one (preserve_none's twelve, %r11 and %rax
// among them; regcall's; the C convention's six, with the rest on the
// stack), in the executable and in a shared library built with -fPIC.
#ifndef ATTR
#error "build with -DATTR=<attribute>, for example -DATTR=preserve_none"
#endif
#define SPECIAL __attribute__((noinline, ATTR))

#define ALL_PARAMS                                                             \
  long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,     \
      long a9, long a10, long a11, long a12, double d1, double d2, double d3,  \
      double d4, double d5, double d6, double d7, double d8
#define ALL_ARGS a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, d1, d2, d3, d4, d5, d6, d7, d8
// Each argument weighed differently: a lost or swapped one shows.
#define WEIGH_ALL                                                              \
  (a1 + 2 * a2 + 3 * a3 + 5 * a4 + 7 * a5 + 11 * a6 + 13 * a7 + 17 * a8 +     \
   19 * a9 + 23 * a10 + 29 * a11 + 31 * a12 +                                  \
   (long)(37 * d1 + 41 * d2 + 43 * d3 + 47 * d4 + 53 * d5 + 59 * d6 +         \
          61 * d7 + 67 * d8))

SPECIAL long lib_weigh(ALL_PARAMS);
SPECIAL long lib_climb(int n, ALL_PARAMS);
