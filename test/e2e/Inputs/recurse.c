// D nested calls of an instrumented function, then D returns; prints the
// statistics of exactly that stretch for the reference model to check.
#include <rsb_stuff.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int rec(int n) {
  if (n <= 1)
    return 1;
  int r = rec(n - 1);
  // Keeps the call out of tail position at -O2.
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  struct rsb_stats s;
  rsb_depth_reset();
  rsb_stats_reset();
  int result = rec(depth);
  uint64_t counter = rsb_depth_read();
  rsb_stats_read(&s);
  printf("result=%d calls=%llu returns=%llu refills=%llu depth=0x%016llx\n",
         result, (unsigned long long)s.calls, (unsigned long long)s.returns,
         (unsigned long long)s.refills, (unsigned long long)counter);
  return result == depth ? 0 : 1;
}
