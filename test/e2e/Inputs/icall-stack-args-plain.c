/* Built with plain clang-22: the uninstrumented targets of
 * icall-stack-args.c. */
struct big_arg {
  long v[4];
};
long plain_eight(long a, long b, long c, long d, long e, long f, long g,
                 long h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
long plain_two(long a, long b) { return a - b; }
long plain_byval(struct big_arg s) { return s.v[0] + 2 * s.v[3]; }
long plain_ldarg(long double x) { return (long)(x * 4); }
