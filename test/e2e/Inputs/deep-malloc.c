// An interposed malloc() (LD_PRELOAD) that goes 40 calls deep before handing
// the request to the C library's own: far deeper than the table's depth of
// malloc once initialised, which only holds for the C library's definition.
// Built without rsb-stuff, at -O0 so that the recursion stays one.
#include <stddef.h>

extern void *__libc_malloc(size_t);

static int deep(int n) { return n ? deep(n - 1) + 1 : 0; }

void *malloc(size_t size) {
  deep(40);
  return __libc_malloc(size);
}
