// The program of most wrapper tests: main calls helper (helper.c), so a
// link needs both; exits 0 when run without arguments.
#include "dep.h"

int helper(int x);

int main(int argc, char **argv) {
  (void)argv;
  return helper(argc) - argc + DEP_ZERO;
}
