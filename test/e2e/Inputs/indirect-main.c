/* Indirect calls to every kind of target: instrumented (recursing deeper
 * than the RSB through pointers), elided (a leaf), uninstrumented (an
 * object built by plain clang, recursing with plain rets), a shared
 * object's instrumented function, and the C library; also through tail
 * calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef long (*fn)(long);
long plain_deep(long n);   /* indirect-plain.c, plain clang */
long shared_deep(long n);  /* indirect-shared.c, a shared object */

static fn volatile next;

static __attribute__((noinline)) long deep(long n) {
  return n <= 0 ? 1 : next(n - 1) + 1;
}
static __attribute__((noinline)) long leaf(long n) { return n * 3; }

/* A tail call through a pointer to each kind of target: straight into a
 * marked one, after the accounting and the reset into the others. */
static fn volatile tail_target;
static __attribute__((noinline)) long bounce(long n) { return tail_target(n); }

int main(void) {
  fn targets[] = {deep, leaf, plain_deep, shared_deep};
  size_t (*length)(const char *) = strlen;
  long sum = 0;
  next = deep;
  for (int round = 0; round < 200; round++)
    for (unsigned k = 0; k < sizeof targets / sizeof *targets; k++) {
      fn volatile target = targets[k];
      sum += target(40 + round % 7);
      tail_target = targets[k];
      sum += bounce(30 + round % 5);
      sum += (long)length("indirect");
    }
  printf("sum %ld\n", sum);
  return 0;
}
