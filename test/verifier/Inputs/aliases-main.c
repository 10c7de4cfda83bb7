// Calls the functions of aliases.c by their aliases from another file, and
// from plain_caller (plain-caller.c, built without rsb-stuff).
#include <stdio.h>

int use(int), strong_a(int), weak_b(int), picked(int), weak_def(int);
int plain_caller(int);

int main(int argc, char **argv) {
  (void)argv;
  printf("%d %d %d\n", use(argc),
         strong_a(argc) + weak_b(argc) + picked(argc) + weak_def(argc),
         plain_caller(argc));
  return 0;
}
