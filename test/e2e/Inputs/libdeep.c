// The shared library of the multi-file program: recursion inside the
// library, a call back into the executable, an indirect call, a tail call.
#include <stdint.h>

extern __thread uint64_t __rsb_depth;
int ping(int n);

__attribute__((noinline)) int lib_depth(int n) {
  if (n <= 1)
    return 1;
  int r = lib_depth(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int lib_pong(int n) {
  int r = n > 0 ? ping(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int lib_apply(int (*fn)(int), int x) { return fn(x) + 1; }

__attribute__((noinline)) int lib_helper(int x) { return x * 7; }

int lib_tail(int x) { return lib_helper(x + 1); }

const volatile uint64_t *lib_counter_address(void) { return &__rsb_depth; }
