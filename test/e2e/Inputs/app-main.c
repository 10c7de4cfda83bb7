// Main object of the multi-file program: exercises calls across objects and
// into and out of a shared library, then checks one counter per thread.
#include <rsb_stuff.h>
#include <stdio.h>
#include <string.h>

extern __thread uint64_t __rsb_depth;
int util_sum(int n);
int lib_pong(int n);
int lib_apply(int (*fn)(int), int x);
int lib_tail(int x);
const volatile uint64_t *lib_counter_address(void);

__attribute__((noinline)) int ping(int n) {
  int r = n > 0 ? lib_pong(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static int twice(int x) { return 2 * x; }

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "pingpong")) {
    // 40 nested counted calls alternating between the executable and the
    // library: one model recursion if, and only if, both use one counter.
    struct rsb_stats s;
    rsb_depth_reset();
    rsb_stats_reset();
    int r = ping(39);
    uint64_t counter = rsb_depth_read();
    rsb_stats_read(&s);
    printf("result=%d calls=%llu returns=%llu refills=%llu depth=0x%016llx\n",
           r, (unsigned long long)s.calls, (unsigned long long)s.returns,
           (unsigned long long)s.refills, (unsigned long long)counter);
    return 0;
  }
  printf("util_sum=%d\n", util_sum(10));
  printf("lib_apply=%d\n", lib_apply(twice, 20));
  printf("lib_tail=%d\n", lib_tail(5));
  printf("ping=%d\n", ping(9));
  printf("one counter: %s\n",
         lib_counter_address() == &__rsb_depth ? "yes" : "no");
  return 0;
}
