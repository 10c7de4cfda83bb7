// An interposed free() (LD_PRELOAD) that goes 40 calls deep before handing
// the block to the C library's own: far deeper than the table's depth of
// free, which only holds for the C library's definition. Built without
// rsb-stuff, at -O0 so that the recursion stays one.
extern void __libc_free(void *);

static int deep(int n) { return n ? deep(n - 1) + 1 : 0; }

void free(void *p) {
  deep(40);
  __libc_free(p);
}
