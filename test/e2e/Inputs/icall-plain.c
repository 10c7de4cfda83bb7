/* Built with plain clang-22 (no rsb-stuff): the unmarked targets of
 * test/e2e/shared-indirect-call.test, reached through __rsb_icall_r11's
 * frame, and the callers of its callbacks. */
#define PREFIX plain_
#include "icall-callees.h"

/* Calls back into instrumented code, which may recurse and refill, then
 * returns with plain rets. */
__attribute__((noinline)) int plain_callback(int (*cb)(int), int n) {
  int r = cb(n);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

/* One half of a recursion through __rsb_icall_r11 on every instrumented ->
 * plain step: even (instrumented) calls this through a pointer. */
__attribute__((noinline)) int plain_odd(int (*even)(int), int n) {
  int r = n > 0 ? even(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

/* The callback from `depth` plain frames down: their plain returns, after
 * the callback's, may drain the RSB before __rsb_icall_r11 returns. */
__attribute__((noinline)) int plain_nested(int (*cb)(int), int depth, int n) {
  int r = depth > 0 ? plain_nested(cb, depth - 1, n) : cb(n);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
