// Built with plain clang++-22 (no rsb-stuff) and -fno-omit-frame-pointer:
// callees that test/e2e/shared-indirect-call.test reaches through
// __rsb_icall_r11's frame, which throw, take a backtrace, or walk the
// frame-pointer chain up through that frame.
#include <execinfo.h>
#include <stdexcept>

extern "C" __attribute__((noinline)) int plain_throw(int x) {
  if (x > 0)
    throw std::runtime_error("from the plain callee");
  return x;
}

extern "C" __attribute__((noinline)) int plain_backtrace(void **frames,
                                                         int size) {
  return backtrace(frames, size);
}

// The return addresses along the %rbp chain, as a profiler without unwind
// tables would see them.
extern "C" __attribute__((noinline)) int plain_fp_walk(void **frames,
                                                       int size) {
  void **fp = static_cast<void **>(__builtin_frame_address(0));
  int n = 0;
  while (fp && n < size && fp[1]) {
    frames[n++] = fp[1];
    void **next = static_cast<void **>(fp[0]);
    if (next <= fp) // the chain only goes up the stack
      break;
    fp = next;
  }
  return n;
}
