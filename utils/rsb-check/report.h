/*===- report.h - One process's report -----------------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_REPORT_H
#define RSB_CHECK_REPORT_H

#include "counts.h"
#include "model.h"
#include "profile.h"

#include <stdbool.h>
#include <stdio.h>

/* How a process ended, as far as the engine knows. */
enum process_end {
  END_EXITED,   /* status is its exit status */
  END_SIGNALED, /* status is the signal that killed it */
  END_UNKNOWN,  /* it ended without an exit the engine saw: a signal
                   killed it (which one only its parent knows) */
};

struct process_report {
  int pid;
  const char *exe;
  enum process_end end;
  int status;
  const struct counts *counts;
  const struct underflow_list *underflows; /* NULL: none recorded */
  const struct loss_list *losses;          /* NULL: no refill profile */
};

/* Prints the report of one process: its underflowing returns, its refill
 * profile, how it ended (signals always, exits with verbose) and its
 * counts line. */
void print_process_report(FILE *out, const struct process_report *r,
                          const struct report_options *o);

#endif /* RSB_CHECK_REPORT_H */
