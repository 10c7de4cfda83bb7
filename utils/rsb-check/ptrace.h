/*===- ptrace.h - The ptrace engine --------------------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_PTRACE_H
#define RSB_CHECK_PTRACE_H

#include "options.h"

#include "counts.h"

/* Runs argv (PATH searched) single-stepped under ptrace, and every thread
 * and process it creates, until all are gone; prints each process's report
 * as it ends. Fills *total and returns the exit status of the program as a
 * shell reports it (128 + signal for a crash). */
int ptrace_run(char **argv, const struct options *opts, struct counts *total);

#endif /* RSB_CHECK_PTRACE_H */
