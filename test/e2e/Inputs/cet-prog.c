// A program that links every part of the runtime: instrumented calls and
// returns (thunks, counter), a call to a function built without rsb-stuff
// (a link-time fallback) and a signal handler (the signal wrappers).
#include <signal.h>
#include <stdio.h>

int plain_leaf(int x);

static void on_usr1(int sig) { (void)sig; }

__attribute__((noinline)) int twice(int x) { return 2 * x; }

int main(int argc, char **argv) {
  (void)argv;
  signal(SIGUSR1, on_usr1);
  printf("%d\n", plain_leaf(twice(argc)));
  return 0;
}
