// flags-matrix program attrs: functions with the attribute or calling
// convention ATTR (given by the row, e.g. -DATTR=preserve_most), called
// from plain code and calling back into it, in the executable and in a
// shared library built with -fPIC.
#ifndef ATTR
#error "build with -DATTR=<attribute>, for example -DATTR=preserve_most"
#endif
#define SPECIAL __attribute__((noinline, ATTR))

SPECIAL int lib_special(int n, int (*plain)(int));
SPECIAL int lib_leaf(int x);
