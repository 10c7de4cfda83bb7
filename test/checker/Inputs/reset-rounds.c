/* A recursion 20 deep whose every level calls plain code (a reset after
 * each call in the instrumented build), ROUNDS times
 * (test/checker/exact-counter-resets.test). */
#include <stdio.h>
#include <stdlib.h>
int plain_leaf(int);
__attribute__((noinline)) int down(int n) { return n ? down(n - 1) * 3 + plain_leaf(n) : 1; }
int main(int argc, char **argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 1000, s = 0;
  for (int i = 0; i < rounds; i++) s += down(20);
  printf("%d\n", s);
  return 0;
}
