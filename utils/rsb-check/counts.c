/*===- counts.c - What the model counts -----------------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The counts of one process, their sum over a whole run, and the report line
 * that tests read.
 *
 *===----------------------------------------------------------------------===*/

#include "counts.h"

#include <inttypes.h>

void add_counts(struct counts *sum, const struct counts *c) {
  if (c->refills &&
      (sum->refills == 0 || c->min_rsb_at_refill < sum->min_rsb_at_refill))
    sum->min_rsb_at_refill = c->min_rsb_at_refill;
  sum->returns += c->returns;
  sum->underflows += c->underflows;
  sum->foreign_underflows += c->foreign_underflows;
  sum->trap += c->trap;
  sum->mispredicted += c->mispredicted;
  sum->correct += c->correct;
  sum->calls += c->calls;
  sum->refills += c->refills;
  sum->unknown += c->unknown;
  sum->instructions += c->instructions;
  sum->unmodelled += c->unmodelled;
  sum->ideal_refills += c->ideal_refills;
  sum->processes += c->processes;
  sum->threads += c->threads;
}

void print_counts(FILE *out, const struct counts *c, bool total) {
  fprintf(out,
          "returns=%" PRIu64 " underflows=%" PRIu64 " trap=%" PRIu64
          " mispredicted=%" PRIu64 " correct=%" PRIu64 " calls=%" PRIu64
          " refills=%" PRIu64,
          c->returns, c->underflows, c->trap, c->mispredicted, c->correct,
          c->calls, c->refills);
  if (c->refills)
    fprintf(out, " min-rsb-at-refill=%u", c->min_rsb_at_refill);
  else
    fputs(" min-rsb-at-refill=-", out);
  if (total)
    fprintf(out, " processes=%u", c->processes);
  fprintf(out,
          " threads=%u unknown=%" PRIu64 " instructions=%" PRIu64
          " foreign-underflows=%" PRIu64 " unmodelled=%" PRIu64
          " ideal-refills=%" PRIu64 "\n",
          c->threads, c->unknown, c->instructions, c->foreign_underflows,
          c->unmodelled, c->ideal_refills);
}
