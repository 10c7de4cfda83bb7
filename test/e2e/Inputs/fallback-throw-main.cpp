// Instrumented: an exception thrown by a callback, through a function built
// without rsb-stuff that an instrumented caller reached through rsb-ld's
// fallback frame (__rsb_entry.plain_through), caught above that frame; and
// a backtrace from under a fallback frame that reaches main.
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <stdexcept>

extern "C" int plain_through(int (*callback)(int), int x);
extern "C" int plain_backtrace(void **frames, int size);

static int thrower(int x) {
  if (x > 0)
    throw std::runtime_error("through the fallback");
  return x;
}

__attribute__((noinline)) int catcher(int x) {
  try {
    return plain_through(thrower, x);
  } catch (const std::exception &e) {
    std::printf("caught: %s\n", e.what());
    return -1;
  }
}

int main(int argc, char **) {
  std::printf("returned: %d\n", catcher(argc - 1));
  std::printf("thrown: %d\n", catcher(argc));
  void *frames[16];
  int n = plain_backtrace(frames, 16);
  bool found = false;
  for (int i = 0; i < n; i++) {
    Dl_info info;
    if (dladdr(frames[i], &info) && info.dli_sname &&
        !std::strcmp(info.dli_sname, "main"))
      found = true;
  }
  std::printf("backtrace reaches main: %s\n", found ? "yes" : "no");
  return 0;
}
