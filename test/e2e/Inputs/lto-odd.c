// The second object of the LTO program.
int even(int n);

__attribute__((noinline)) int odd(int n) {
  int r = n > 0 ? even(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
