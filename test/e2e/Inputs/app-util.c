// A second object of the executable: calls into the library and a local
// helper.
int lib_depth(int n);

static __attribute__((noinline)) int square(int x) { return x * x; }

__attribute__((noinline)) int util_sum(int n) {
  int total = 0;
  for (int i = 1; i <= n; i++)
    total += square(i);
  __asm__ volatile("" ::: "memory");
  return total + lib_depth(n);
}
