// IFUNC resolvers, the user's (resolve_inc) and the one clang makes for
// target_clones (sum.resolver): left uninstrumented on purpose, because a
// static program runs them before there is a thread pointer. plain is
// uninstrumented too, but no resolver.
#include <rsb_stuff.h>

__attribute__((target_clones("avx2", "default"))) int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}

int prefer_two; // still 0 when the resolver runs
static int plus_one(int x) { return x + 1; }
static int plus_two(int x) { return x + 2; }
static int (*resolve_inc(void))(int) {
  return prefer_two ? plus_two : plus_one;
}
int inc(int) __attribute__((ifunc("resolve_inc")));

RSB_NOSTUFF __attribute__((noinline)) int plain(int x) { return x - 1; }

#ifndef LIB
#include <stdio.h>
int main(void) {
  printf("%d %d %d\n", sum(10), inc(41), plain(8));
  return 0;
}
#endif
