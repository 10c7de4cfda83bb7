// A shared library and its program, both instrumented, both calling into
// the C library: each module checks its own cap records at start-up, and
// the program's statistics report counts both. -DCAPS_LIBRARY builds the
// library, -DCAPS_MAIN the program.
#include <stdio.h>
#include <string.h>

int lib_compare(const char *a, const char *b);

#ifdef CAPS_LIBRARY
int lib_compare(const char *a, const char *b) {
  return strcoll(a, b) + (int)strlen(b);
}
#endif

#ifdef CAPS_MAIN
int main(int argc, char **argv) {
  printf("%d %d\n", lib_compare(argv[0], "x"), (int)strlen(argv[argc - 1]));
  return 0;
}
#endif
