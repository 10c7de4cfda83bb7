/* Indirect calls that pass arguments on the stack, and calls that pass none
 * in a function that also makes one that does
 * (test/e2e/shared-indirect-call-stack-args.test): __rsb_icall_r11 would
 * call the target 16 bytes below the site's frame, where the callee would
 * not find its stack arguments, so these keep the check in place. Each
 * target comes instrumented and plain (icall-stack-args-plain.c). */
#include <stdio.h>

struct big_arg {
  long v[4];
};
__attribute__((noinline)) long inst_eight(long a, long b, long c, long d,
                                          long e, long f, long g, long h) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
__attribute__((noinline)) long inst_two(long a, long b) { return a - b; }
__attribute__((noinline)) long inst_byval(struct big_arg s) {
  return s.v[0] + 2 * s.v[3];
}
__attribute__((noinline)) long inst_ldarg(long double x) {
  return (long)(x * 4);
}
long plain_eight(long, long, long, long, long, long, long, long);
long plain_two(long, long);
long plain_byval(struct big_arg);
long plain_ldarg(long double);

static long (*volatile p_eight)(long, long, long, long, long, long, long, long);
static long (*volatile p_two)(long, long);
static long (*volatile p_byval)(struct big_arg);
static long (*volatile p_ldarg)(long double);

/* The call's own stack arguments. */
__attribute__((noinline)) long site_eight(void) {
  return p_eight(1, 2, 3, 4, 5, 6, 7, 8);
}
__attribute__((noinline)) long site_byval(void) {
  struct big_arg s = {{10, 20, 30, 40}};
  return p_byval(s);
}
__attribute__((noinline)) long site_ldarg(void) { return p_ldarg(2.5L); }
/* No stack argument at this call, but at another of the function. */
__attribute__((noinline)) long site_mixed(long x) {
  long r = p_two(x, 1);
  return r + inst_eight(x, 2, 3, 4, 5, 6, 7, r);
}
/* None at all: the copy makes the call. */
__attribute__((noinline)) long site_clean(long x) { return p_two(x, 1) + 1; }

static void run(const char *kind) {
  printf("%s eight: %ld\n", kind, site_eight());
  printf("%s byval: %ld\n", kind, site_byval());
  printf("%s ldarg: %ld\n", kind, site_ldarg());
  printf("%s mixed: %ld\n", kind, site_mixed(100));
  printf("%s clean: %ld\n", kind, site_clean(100));
}

int main(void) {
  p_eight = inst_eight;
  p_two = inst_two;
  p_byval = inst_byval;
  p_ldarg = inst_ldarg;
  run("inst");
  p_eight = plain_eight;
  p_two = plain_two;
  p_byval = plain_byval;
  p_ldarg = plain_ldarg;
  run("plain");
  return 0;
}
