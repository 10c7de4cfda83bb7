// Built WITHOUT rsb-stuff: calls the instrumented even_t back, plainly.
int even_t(int n);

__attribute__((noinline)) int odd_t(int n) {
  int r = even_t(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
