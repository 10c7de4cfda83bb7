/*===- options.h - What the command line asks of an engine ---------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_OPTIONS_H
#define RSB_CHECK_OPTIONS_H

/* process_vm_readv, __WALL, strsignal, gettid: every source includes its
 * own header first, and each includes this one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit statuses of our own, as env(1) uses them. */
#define EXIT_UNDERFLOW 3
#define EXIT_USAGE 2
#define EXIT_INTERNAL 125
#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

#define DEFAULT_RSB_SIZE 16
#define MAX_RSB_SIZE 4096

enum engine { ENGINE_QEMU, ENGINE_PTRACE };

/* What a process's report shows beside its counts (report.c). */
struct report_options {
  bool list_underflows; /* each underflowing ret */
  bool refill_profile;  /* the excess refills per credit loss site, ranked */
  bool verbose; /* threads, processes, execs, refills; exits of processes */
};

struct options {
  enum engine engine;
  FILE *out;
  struct report_options report;
  bool fail_on_underflow;
  bool fail_only_instrumented; /* --fail-on-underflow=instrumented */
  unsigned rsb_size;
};

/* In rsb-check, once the program is started: like a shell waiting for a
 * command, ^C and ^\ are for the program, whose death it still reports. */
static inline void ignore_terminal_signals(void) {
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
}

#endif /* RSB_CHECK_OPTIONS_H */
