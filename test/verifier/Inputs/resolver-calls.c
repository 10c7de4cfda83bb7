// An ifunc resolver that calls an instrumented function: the resolver is
// not instrumented, but pick's return check touches the counter at %fs:,
// which a static program's start-up has not set up when it runs resolvers.
#include <stdio.h>

__attribute__((noinline)) int pick(void) {
  __asm__ volatile("");
  return 0;
}

static int plus_one(int x) { return x + 1; }
static int plus_two(int x) { return x + 2; }
static int (*resolve(void))(int) { return pick() ? plus_two : plus_one; }
int f(int) __attribute__((ifunc("resolve")));

int main(void) {
  printf("%d\n", f(41));
  return 0;
}
