// flags-matrix program freestanding: no C library (-ffreestanding
// -nostdlib), so no thread-local storage unless rsb-stuff's start-up code
// makes it. Recursion 40 deep, output and exit through system calls.
// Two entry points: _start, the default, and freestanding_start, for a
// link with -e freestanding_start; each says which one ran.

static long sys_call3(long number, long a, long b, long c) {
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b), "d"(c)
                   : "rcx", "r11", "memory");
  return result;
}

__attribute__((noinline)) static void put(const char *text, long length) {
  sys_call3(1, 1, (long)text, length); // write(1, text, length)
}

__attribute__((noinline)) static void put_number(long n) {
  char digits[20];
  int i = sizeof(digits);
  do
    digits[--i] = (char)('0' + n % 10);
  while ((n /= 10) && i > 0);
  put(digits + i, sizeof(digits) - i);
}

__attribute__((noinline)) int depth(int n) {
  if (n == 0)
    return 0;
  int r = depth(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noreturn, noinline)) static void run(const char *entry,
                                                    long length, int status) {
  put(entry, length);
  put(" depth=", 7);
  put_number(depth(40));
  put("\n", 1);
  sys_call3(231, status, 0, 0); // exit_group(status)
  __builtin_unreachable();
}

// The process starts with %rsp 16-byte aligned, not as after a call.
__attribute__((force_align_arg_pointer, noreturn)) void _start(void) {
  run("_start", 6, 5);
}

__attribute__((force_align_arg_pointer, noreturn)) void
freestanding_start(void) {
  run("freestanding_start", 18, 6);
}
