// Tail calls into plain code that calls back: instrumented even() tail-calls
// odd(), left uninstrumented in the same file, which calls even() again.
// The innermost even() calls snprintf (a reset) and then returns, which
// refills; then the 20 plain returns of the odd() frames unwind, and
// chain()'s 14 checked returns follow.
#include <rsb_stuff.h>
#include <stdio.h>
#include <stdlib.h>
int odd(int n);
const char *volatile Zero = "0";
__attribute__((noinline)) int even(int n) {
  if (n <= 0)
    { char b[8]; return snprintf(b, sizeof b, "%s", Zero) - 1; } /* reset */
  return odd(n - 1); /* a tail call to plain code */
}
RSB_NOSTUFF __attribute__((noinline)) int odd(int n) {
  int r = even(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
__attribute__((noinline)) int chain(int d, int n) {
  if (d == 0)
    return even(n);
  int r = chain(d - 1, n);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 40;
  printf("%d\n", chain(14, n));
  return 0;
}
