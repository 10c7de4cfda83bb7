// flags-matrix program ifunc: IFUNC symbols whose resolvers run before the
// C library sets up thread-local storage in a static program. A user
// `ifunc` whose resolver calls an instrumented function that recurses 20
// deep, and a `target_clones` function (clang's resolver); then recursion
// 40 deep through both.
#include <stdio.h>

__attribute__((noinline)) int probe(int n) {
  if (n == 0)
    return 0;
  int r = probe(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static int add_plain(int a, int b) { return a + b; }
static int add_swapped(int a, int b) { return b + a; }

typedef int add_fn(int, int);
static add_fn *resolve_add(void) {
  return probe(20) == 20 ? add_plain : add_swapped;
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
  printf("depth=%d twice=%d probe=%d\n", depth(40), twice(21), probe(30));
  return 3;
}
