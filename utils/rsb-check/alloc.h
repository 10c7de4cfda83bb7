/*===- alloc.h - Allocation that cannot fail -----------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_ALLOC_H
#define RSB_CHECK_ALLOC_H

#include <stddef.h>

/* Allocation that cannot fail: rsb-check exits (125) when memory runs out. */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif /* RSB_CHECK_ALLOC_H */
