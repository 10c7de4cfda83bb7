// The program's own localeconv, 40 calls deep: far deeper than the table's
// depth of the C library's (0), which only holds for that definition.
// Built with and without rsb-stuff (at -O0 the recursion stays one).
#include <locale.h>

static struct lconv Own = {.decimal_point = ","};

static int deep(int n) { return n ? deep(n - 1) + 1 : 0; }

volatile int Sink;

struct lconv *localeconv(void) {
  Sink = deep(40);
  return &Own;
}
