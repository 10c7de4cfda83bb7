// A fatal-error helper in an object of its own, as expat's tests have:
// the callers only see its noreturn declaration.
#include <stdio.h>
#include <stdlib.h>

_Noreturn void fail(const char *why) {
  printf("failed: %s\n", why);
  exit(3);
}
