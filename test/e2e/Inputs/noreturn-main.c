// Calls the noreturn fail() of another object from a deep recursion.
_Noreturn void fail(const char *why);

__attribute__((noinline)) int down(int n) {
  if (n == 0)
    fail("bottom");
  int r = down(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main(int argc, char **argv) {
  (void)argv;
  return down(argc + 29);
}
