// Waits for a signal that ends it: a test run that times out.
#include <stdio.h>
#include <unistd.h>

int main(void) {
  puts("waiting");
  fflush(stdout);
  for (;;)
    pause();
}
