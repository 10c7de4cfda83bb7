// Calls and tail calls from instrumented code to a function that is not
// instrumented (plain_leaf, from an object built without rsb-stuff): the
// link uses rsb-clang's fallbacks, which do not count the call and clear
// the credit (plain_leaf's calls and returns are invisible to the counter).
#include <rsb_stuff.h>
#include <stdio.h>

int plain_leaf(int x);

__attribute__((noinline)) int call_plain(int x) {
  int r = plain_leaf(x);
  __asm__ volatile("" ::: "memory");
  return r;
}

__attribute__((noinline)) int tail_plain(int x) { return plain_leaf(x); }

int main(void) {
  struct rsb_stats s;
  rsb_stats_reset();
  int a = call_plain(1); // 1 counted call (call_plain), 1 thunk return
  int b = tail_plain(2); // 1 counted call; the tail fallback clears the
                         // credit, which covers plain_leaf's plain ret
  rsb_stats_read(&s);
  printf("a=%d b=%d calls=%llu returns=%llu resets=%llu\n", a, b,
         (unsigned long long)s.calls, (unsigned long long)s.returns,
         (unsigned long long)s.resets);
  return 0;
}
