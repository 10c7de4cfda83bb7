/*===- rsb_stuff.h - rsb-stuff runtime interface ------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Programs built with rsb-clang keep a per-thread call depth counter: every
 * instrumented call shifts it right by 5 (arithmetically), every return
 * through the runtime's thunk shifts it left by 5, and a return that leaves
 * zero refills the Return Stack Buffer and resets the counter to all ones.
 * This header lets programs and tests look at that counter and, with the
 * statistics runtime (rsb-clang --rsb-stats), at the per-thread event counts.
 *
 * The functions are part of every runtime library (librsbstuff*.a for
 * executables, librsbstuff*.so for processes whose executable is not
 * instrumented). They are not instrumented themselves, so calling them does
 * not change the counter beyond what the caller's own call accounting does.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_STUFF_H
#define RSB_STUFF_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Leaves a function uninstrumented (no prefix, plain returns, calls to it
 *  are not counted), with a -Rpass-missed=x86-rsb-stuff remark. For code
 *  that must not touch the counter, like the kernel's noinstr. */
#define RSB_NOSTUFF __attribute__((annotate("rsb_nostuff")))

/** The counter value of a thread at call depth zero with no credit. */
#define RSB_DEPTH_INIT UINT64_C(0x8000000000000000)

/** Per-thread event counts kept by the statistics runtime. */
struct rsb_stats {
  uint64_t calls;   /**< Accounted calls (instrumented function entries). */
  uint64_t returns; /**< Returns accounted by the runtime. */
  uint64_t refills; /**< RSB refills (returns that found the counter spent). */
  uint64_t resets;  /**< Credit cleared after code the counter cannot see
                         (calls into uninstrumented code, landing pads,
                         setjmp returns, signal handlers). */
  uint64_t caps;    /**< Credit caps after calls into the C library (a
                         reset where the start-up check fell back). */
};

/** Outcome of the start-up checks of the C library's depth table, one count
 *  per cap record of every instrumented module (statistics runtime). */
struct rsb_cap_report {
  uint64_t vouched;     /**< The table's depth holds: capped. */
  uint64_t lazy;        /**< Module bound lazily (or LD_AUDIT). */
  uint64_t other_build; /**< Another build of the library. */
  uint64_t elsewhere;   /**< Resolved outside it (interposed, static,
                             canonical PLT entry). */
  uint64_t unset;       /**< The depth holds once a flag of the library
                             is set (its allocator initialised); it is
                             not. */
};

/** Returns the calling thread's call depth counter. */
uint64_t rsb_depth_read(void);

/** Sets the calling thread's counter to RSB_DEPTH_INIT, so that a test can
 *  replay a reference model from a known state. */
void rsb_depth_reset(void);

/** Returns the address of the calling thread's counter as this copy of the
 *  runtime resolves it. Every copy in a process must return the same address:
 *  there is one counter per thread, whoever defines it. */
const volatile uint64_t *rsb_depth_address(void);

/** Copies the calling thread's statistics to *out and returns 0. Without the
 *  statistics runtime, zeroes *out and returns -1. */
int rsb_stats_read(struct rsb_stats *out);

/** Zeroes the calling thread's statistics (no-op without the statistics
 *  runtime). */
void rsb_stats_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* RSB_STUFF_H */
