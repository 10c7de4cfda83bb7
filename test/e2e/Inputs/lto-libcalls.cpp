// Calls that code generation adds after the bitcode was written: the
// unwinder's _Unwind_Resume (a cleanup during a throw), __stack_chk_fail,
// __tls_get_addr (a thread_local in position-independent code), 128-bit
// division helpers, libatomic for an atomic too large for the hardware,
// and __cxa_* for the throw itself.
#include <atomic>
#include <cstdio>
#include <cstring>

struct Big {
  long v[4];
};

std::atomic<Big> shared_big;
thread_local int per_thread = 7;

struct Noisy {
  int id;
  explicit Noisy(int i) : id(i) {}
  ~Noisy() { std::printf("cleanup %d\n", id); }
};

__attribute__((noinline)) void thrower(int depth) {
  Noisy n(depth);
  if (depth == 0)
    throw depth + 100;
  thrower(depth - 1);
}

__attribute__((noinline)) int guarded_copy(const char *s) {
  char buf[32];
  std::strncpy(buf, s, sizeof buf - 1);
  buf[sizeof buf - 1] = 0;
  return (int)std::strlen(buf);
}

__attribute__((noinline)) __int128 divide(__int128 a, __int128 b) {
  return a / b;
}

int main() {
  try {
    thrower(3);
  } catch (int e) {
    std::printf("caught %d\n", e);
  }
  Big b = {{1, 2, 3, 4}};
  shared_big.store(b);
  Big c = shared_big.load();
  __int128 q = divide((__int128)1 << 100, 12345);
  std::printf("len=%d tls=%d big=%ld q=%llu\n", guarded_copy("hello world"),
              per_thread, c.v[3], (unsigned long long)(q >> 40));
  return 0;
}
