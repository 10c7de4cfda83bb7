// Functions whose convention gives %r11 a meaning, in a shared object
// (initial-exec prefix, PIC return thunk: both use %r11 as scratch).
__attribute__((no_caller_saved_registers, noinline)) void keeps_all(long *p) {
  __asm__ volatile("" ::: "memory");
  *p += 1;
}

// preserve_none passes its 11th integer argument in %r11.
__attribute__((preserve_none, noinline)) long eleventh(long a, long b, long c,
                                                      long d, long e, long f,
                                                      long g, long h, long i,
                                                      long j, long k) {
  __asm__ volatile("" ::: "memory");
  return k * 1000 + a;
}

long call_eleventh(void) { return eleventh(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11); }
