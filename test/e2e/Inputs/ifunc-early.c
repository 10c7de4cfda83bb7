// IFUNC symbols in a static program: glibc binds them (calls their
// resolvers) from __libc_start_main before it sets up thread-local storage.
// The user's resolver calls an instrumented function that recurses 20 deep
// (counted calls, checked returns: the counter must exist by then); clang
// makes the resolver of a target_clones function. Then main recurses
// through both, 40 deep.
#include <stdio.h>

__attribute__((noinline)) int probe(int n) {
  if (n == 0)
    return 0;
  int r = probe(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static int add_plain(int a, int b) { return a + b; }
static int add_other(int a, int b) { return a + b + 1000; }

typedef int add_fn(int, int);
static add_fn *resolve_add(void) {
  return probe(20) == 20 ? add_plain : add_other;
}
int add(int, int) __attribute__((ifunc("resolve_add")));

__attribute__((target_clones("avx2", "default"))) int twice(int x) {
  return 2 * x;
}

__attribute__((noinline)) int depth(int n) {
  if (n == 0)
    return twice(0);
  int r = depth(n - 1);
  __asm__ volatile("" ::: "memory");
  return add(r, 1);
}

int main(void) {
  printf("depth=%d twice=%d\n", depth(40), twice(21));
  return 0;
}
