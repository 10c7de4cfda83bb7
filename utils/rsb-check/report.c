/*===- report.c - One process's report ------------------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The lines both engines print for a process, in the order tests read
 * them: the underflow list, the refill profile, how the process ended, its
 * counts.
 *
 *===----------------------------------------------------------------------===*/

#include "report.h"

#include "alloc.h"

#include <inttypes.h>
#include <stdlib.h>
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

/* Loss sites by the refills charged to them, most first; equal counts in
 * the order of their names, which both engines give alike. */
static int compare_sites(const void *a, const void *b) {
  const struct loss_site *x = *(const struct loss_site *const *)a,
                         *y = *(const struct loss_site *const *)b;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return strcmp(x->where, y->where);
}

static void print_profile(FILE *out, const struct process_report *r) {
  const struct loss_list *list = r->losses;
  const struct loss_site **ranked = xcalloc(list->count + 1, sizeof *ranked);
  uint64_t excess = list->dropped;
  size_t n = 0;
  for (uint32_t i = 0; i < list->count; i++) {
    excess += list->items[i].count;
    if (list->items[i].count)
      ranked[n++] = &list->items[i];
  }
  qsort(ranked, n, sizeof *ranked, compare_sites);
  fprintf(out,
          "rsb-check: pid %d %s: refill profile: refills=%" PRIu64
          " ideal-refills=%" PRIu64 " excess=%" PRIu64 "\n",
          r->pid, r->exe, r->counts->refills, r->counts->ideal_refills, excess);
  for (size_t i = 0; i < n; i++)
    fprintf(out, "rsb-check:   %" PRIu64 " %s\n", ranked[i]->count,
            ranked[i]->where);
  if (list->dropped)
    fprintf(out,
            "rsb-check:   %" PRIu64 " at sites not listed (more than %" PRIu32
            ")\n",
            list->dropped, list->capacity);
  free(ranked);
}

void print_process_report(FILE *out, const struct process_report *r,
                          const struct report_options *o) {
  if (o->list_underflows && r->underflows)
    print_underflows(out, r->underflows);
  if (o->refill_profile && r->losses)
    print_profile(out, r);
  if (r->end == END_SIGNALED)
    fprintf(out, "rsb-check: pid %d %s: killed by signal %d (%s)\n", r->pid,
            r->exe, r->status, strsignal(r->status));
  else if (r->end == END_UNKNOWN)
    fprintf(out, "rsb-check: pid %d %s: killed by a signal\n", r->pid, r->exe);
  else if (o->verbose)
    fprintf(out, "rsb-check: pid %d %s: exited with status %d\n", r->pid,
            r->exe, r->status);
  fprintf(out, "rsb-check: pid %d %s: ", r->pid, r->exe);
  print_counts(out, r->counts, false);
}
