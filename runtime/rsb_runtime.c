//===- rsb_runtime.c - The call depth counter and the C interface ---------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Defines the per-thread counter (and, with RSB_STATS, the statistics block)
// that instrumented code and rsb_thunks.S update, and the functions of
// rsb_stuff.h. Built into librsbstuff.a for executables (-fPIE) and into
// librsbstuff.so for processes whose executable is not instrumented (-fPIC).
//
// A process must have exactly one counter per thread, so the definitions
// have default visibility: when the executable defines them (and exports
// them), they preempt librsbstuff.so's, whose own accesses therefore go
// through the GOT. A thread's copy starts from the TLS image, so every
// thread, main or not, starts at RSB_DEPTH_INIT with zero statistics.
//
// The initial-exec model is what the instrumented shared objects use as
// well, so it adds no static TLS requirement; in the executable, clang
// relaxes it to local-exec.
//
//===----------------------------------------------------------------------===//

#include "rsb_stuff.h"

#define RSB_TLS __thread __attribute__((tls_model("initial-exec")))

RSB_TLS uint64_t __rsb_depth = RSB_DEPTH_INIT;

uint64_t rsb_depth_read(void) { return __rsb_depth; }

void rsb_depth_reset(void) { __rsb_depth = RSB_DEPTH_INIT; }

const volatile uint64_t *rsb_depth_address(void) { return &__rsb_depth; }

#ifdef RSB_STATS

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(offsetof(struct rsb_stats, returns) == 8 &&
                   offsetof(struct rsb_stats, refills) == 16 &&
                   offsetof(struct rsb_stats, resets) == 24 &&
                   offsetof(struct rsb_stats, caps) == 32,
               "rsb_thunks.S and the instrumented prefixes use these offsets");

RSB_TLS struct rsb_stats __rsb_stats;

// What the start-up checks of every module decided (rsb_caps.c).
struct rsb_cap_report __rsb_cap_report;

// This copy's own definition of the counter, whoever wins the preemption.
static RSB_TLS uint64_t rsb_depth_own __attribute__((alias("__rsb_depth")));

int rsb_stats_read(struct rsb_stats *out) {
  *out = __rsb_stats;
  return 0;
}

void rsb_stats_reset(void) { __rsb_stats = (struct rsb_stats){0}; }

// Only the copy whose counter the process uses prints, so that an
// executable linked with librsbstuff_stats.a that also loads
// librsbstuff_stats.so prints one line.
__attribute__((destructor)) static void rsb_stats_print(void) {
  const char *Enabled = getenv("RSB_STATS");
  if (!Enabled || !*Enabled || &__rsb_depth != &rsb_depth_own)
    return;
  fprintf(stderr,
          "rsb-stuff: calls=%llu returns=%llu refills=%llu resets=%llu "
          "depth=0x%016llx caps=%llu\n",
          (unsigned long long)__rsb_stats.calls,
          (unsigned long long)__rsb_stats.returns,
          (unsigned long long)__rsb_stats.refills,
          (unsigned long long)__rsb_stats.resets,
          (unsigned long long)__rsb_depth,
          (unsigned long long)__rsb_stats.caps);
  const struct rsb_cap_report *r = &__rsb_cap_report;
  if (r->vouched + r->lazy + r->other_build + r->elsewhere + r->unset)
    fprintf(stderr,
            "rsb-stuff: libc-caps vouched=%llu lazy=%llu other-build=%llu "
            "elsewhere=%llu unset=%llu\n",
            (unsigned long long)r->vouched, (unsigned long long)r->lazy,
            (unsigned long long)r->other_build,
            (unsigned long long)r->elsewhere, (unsigned long long)r->unset);
}

#else

int rsb_stats_read(struct rsb_stats *out) {
  *out = (struct rsb_stats){0};
  return -1;
}

void rsb_stats_reset(void) {}

#endif
