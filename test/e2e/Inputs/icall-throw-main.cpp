// Instrumented, -fno-omit-frame-pointer: calls through __rsb_icall_r11
// (test/e2e/shared-indirect-call.test) to plain callees, from `site`. An
// exception the plain callee throws unwinds through the copy's frame (its
// FDE) and is caught in `site`; backtrace() and a frame-pointer walk from
// the plain callee both name `site` and main. The same exception thrown by
// an instrumented callee, which the copy jumps to, is caught there too.
#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <stdexcept>

extern "C" int plain_throw(int x);
extern "C" int plain_backtrace(void **frames, int size);
extern "C" int plain_fp_walk(void **frames, int size);

extern "C" __attribute__((noinline)) int inst_throw(int x) {
  if (x > 0)
    throw std::runtime_error("from the instrumented callee");
  return x;
}

static int (*volatile p_throw)(int);
static int (*volatile p_walk)(void **, int);

extern "C" __attribute__((noinline)) int site(int x) {
  try {
    return p_throw(x);
  } catch (const std::exception &e) {
    std::printf("caught in site: %s\n", e.what());
    return -1;
  }
}

static void *frames[64];

extern "C" __attribute__((noinline)) int walk_site() {
  int n = p_walk(frames, 64);
  __asm__ volatile("" ::: "memory"); // not a tail call
  return n;
}

static void report(const char *what, int n) {
  bool site_seen = false, main_seen = false;
  for (int i = 0; i < n; i++) {
    Dl_info info;
    // A return address lies just past its call: look up the call itself.
    if (!dladdr(static_cast<char *>(frames[i]) - 1, &info) || !info.dli_sname)
      continue;
    site_seen |= !std::strcmp(info.dli_sname, "walk_site");
    main_seen |= !std::strcmp(info.dli_sname, "main");
  }
  std::printf("%s: walk_site %s, main %s\n", what, site_seen ? "yes" : "no",
              main_seen ? "yes" : "no");
}

int main(int argc, char **) {
  p_throw = plain_throw;
  std::printf("plain returned: %d\n", site(argc - 1));
  std::printf("plain thrown: %d\n", site(argc));
  p_throw = inst_throw;
  std::printf("inst returned: %d\n", site(argc - 1));
  std::printf("inst thrown: %d\n", site(argc));
  p_walk = plain_backtrace;
  report("backtrace", walk_site());
  p_walk = plain_fp_walk;
  report("frame pointers", walk_site());
  return 0;
}
