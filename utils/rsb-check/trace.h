/*===- trace.h - The ptrace loop and the RSB model -----------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_TRACE_H
#define RSB_CHECK_TRACE_H

/* process_vm_readv, __WALL, strsignal: every source includes its own header
 * first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "counts.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct options {
  FILE *out;
  bool verbose;
  bool list_underflows;
  bool fail_on_underflow;
  bool fail_only_instrumented; /* --fail-on-underflow=instrumented */
  unsigned rsb_size;
};

/* Reads len bytes of the tracee's memory at addr into buf; returns how many
 * bytes could be read. */
size_t mem_read(pid_t tid, uint64_t addr, void *buf, size_t len);

/* Traces the stopped child `pid` (stopped right after its execve) and every
 * task it creates until all are gone. Fills *total and returns the exit
 * status of `pid` as a shell reports it (128 + signal for a crash). */
int trace_run(pid_t pid, const struct options *opts, struct counts *total);

#endif /* RSB_CHECK_TRACE_H */
