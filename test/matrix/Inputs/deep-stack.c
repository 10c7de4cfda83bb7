// flags-matrix program deep-stack, for -fsplit-stack: a recursion 3000
// frames deep with 4 KiB of locals each, 12 MiB, more than the 8 MiB
// stack a thread starts with, so that __morestack has to give it new stack
// segments (without -fsplit-stack it would overflow the stack).
#include <stdio.h>

__attribute__((noinline)) static long deep(int n) {
  volatile char frame[4096];
  frame[n % sizeof frame] = (char)n;
  if (n == 0)
    return 0;
  return deep(n - 1) + frame[n % sizeof frame];
}

int main(void) {
  printf("deep=%ld\n", deep(3000));
  return 0;
}
