// An instrumented shared library: its thunks reach the counter through the
// GOT and %r11 (initial-exec), unlike an executable's (local-exec).
__attribute__((noinline)) int lib_nest(int n) {
  if (n <= 1)
    return 1;
  int r = lib_nest(n - 1);
  // Keeps the call out of tail position at -O2.
  __asm__ volatile("" ::: "memory");
  return r + 1;
}
