// A shared library of the consumer project.
__attribute__((noinline)) int depth(int n) {
  if (n <= 0)
    return 0;
  int r = depth(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
