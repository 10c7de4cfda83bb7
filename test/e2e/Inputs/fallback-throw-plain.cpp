// Built WITHOUT rsb-stuff: calls back into instrumented code, which throws
// through this frame and through rsb-ld's fallback frame that called it.
#include <execinfo.h>

extern "C" int plain_through(int (*callback)(int), int x) {
  int r = callback(x);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

// A backtrace from under the fallback's frame: how many frames the
// unwinder finds above this one (it must get past the fallback to main).
extern "C" int plain_backtrace(void **frames, int size) {
  int n = backtrace(frames, size);
  __asm__ volatile("" ::: "memory");
  return n;
}
