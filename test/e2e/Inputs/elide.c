// Leaf and shallow helpers (elided with -x86-rsb-stuff-elide-depth=4)
// called all along a deep recursion that is not elided.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("" ::: "memory");
  return x * 3 + 1;
}

__attribute__((noinline)) int two(int x) {
  int r = leaf(x);
  __asm__ volatile("" ::: "memory");
  return r + leaf(r);
}

__attribute__((noinline)) int three(int x) {
  int r = two(x);
  __asm__ volatile("" ::: "memory");
  return r ^ two(x + 1);
}

__attribute__((noinline)) int tail_to_leaf(int x) { return leaf(x + 2); }

__attribute__((noinline)) int rec(int n) {
  if (n <= 1)
    return three(n) & 7;
  int r = rec(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + (three(n) & 7) + (tail_to_leaf(n) & 1);
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  printf("rec=%d\n", rec(depth));
  return 0;
}
