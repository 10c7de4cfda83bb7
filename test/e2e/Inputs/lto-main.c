// The main object of a multi-file LTO program: a recursion that alternates
// between two objects, measured against the model.
#include <rsb_stuff.h>
#include <stdio.h>
#include <stdlib.h>

int odd(int n);

__attribute__((noinline)) int even(int n) {
  int r = n > 0 ? odd(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 40;
  struct rsb_stats s;
  rsb_depth_reset();
  rsb_stats_reset();
  int r = even(depth - 1);
  uint64_t counter = rsb_depth_read();
  rsb_stats_read(&s);
  printf("result=%d calls=%llu returns=%llu refills=%llu depth=0x%016llx\n", r,
         (unsigned long long)s.calls, (unsigned long long)s.returns,
         (unsigned long long)s.refills, (unsigned long long)counter);
  return 0;
}
