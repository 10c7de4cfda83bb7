/*===- counts.h - What the model counts ----------------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_COUNTS_H
#define RSB_CHECK_COUNTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct counts {
  uint64_t returns, underflows, trap, mispredicted, correct;
  uint64_t foreign_underflows; /* of underflows: at rets outside the code
                                  rsb-stuff compiled (libc, ld.so, ASan) */
  uint64_t calls, refills, unknown;
  uint64_t instructions;      /* instructions executed */
  uint64_t unmodelled;        /* execve()s of programs the engine could not
                                 run under the model (they ran unchecked) */
  uint64_t ideal_refills;     /* the exact counter's (model.c) */
  unsigned min_rsb_at_refill; /* meaningful when refills > 0 */
  unsigned processes, threads;
};

/* Prints the counts of one process, or with `total` of all of them. */
void print_counts(FILE *out, const struct counts *c, bool total);
void add_counts(struct counts *sum, const struct counts *c);

#endif /* RSB_CHECK_COUNTS_H */
