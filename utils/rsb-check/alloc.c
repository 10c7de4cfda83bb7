/*===- alloc.c - Allocation that cannot fail ------------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check exits (125, as env(1) does for its own errors) when memory runs
 * out: nothing it could do without memory is worth a partial report.
 *
 *===----------------------------------------------------------------------===*/

#include "alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Our own failure, as env(1) reports it. */
#define EXIT_INTERNAL 125

static void out_of_memory(void) {
  perror("rsb-check");
  exit(EXIT_INTERNAL);
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *xrealloc(void *p, size_t size) {
  p = realloc(p, size);
  if (!p)
    out_of_memory();
  return p;
}

char *xstrdup(const char *s) {
  char *p = strdup(s);
  if (!p)
    out_of_memory();
  return p;
}
