/*===- report.c - One process's report ------------------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The lines both engines print for a process, in the order tests read
 * them: the underflow list, how the process ended, its counts.
 *
 *===----------------------------------------------------------------------===*/

#include "report.h"

#include <inttypes.h>
#include <string.h>

static void print_underflows(FILE *out, const struct underflow_list *list) {
  for (uint32_t i = 0; i < list->count; i++) {
    const struct underflow *u = &list->items[i];
    fprintf(out,
            "rsb-check: underflow at 0x%" PRIx64 " %s -> 0x%" PRIx64
            " count=%" PRIu64 "%s\n",
            u->addr, u->where, u->target, u->count,
            u->foreign ? " (not instrumented)" : "");
  }
  if (list->dropped)
    fprintf(out,
            "rsb-check: %" PRIu64 " more underflows at returns not listed "
            "(more than %" PRIu32 " places)\n",
            list->dropped, list->capacity);
}

void print_process_report(FILE *out, const struct process_report *r,
                          bool list_underflows, bool verbose) {
  if (list_underflows && r->underflows)
    print_underflows(out, r->underflows);
  if (r->end == END_SIGNALED)
    fprintf(out, "rsb-check: pid %d %s: killed by signal %d (%s)\n", r->pid,
            r->exe, r->status, strsignal(r->status));
  else if (r->end == END_UNKNOWN)
    fprintf(out, "rsb-check: pid %d %s: killed by a signal\n", r->pid,
            r->exe);
  else if (verbose)
    fprintf(out, "rsb-check: pid %d %s: exited with status %d\n", r->pid,
            r->exe, r->status);
  fprintf(out, "rsb-check: pid %d %s: ", r->pid, r->exe);
  print_counts(out, r->counts, false);
}
