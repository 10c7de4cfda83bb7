// longjmp out of 30 instrumented frames, then deep calls again: the frames
// left behind never return, and setjmp's second return must leave the
// counter without credit it cannot back.
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

__attribute__((noinline)) int dive(int depth) {
  if (depth == 0)
    longjmp(env, 1);
  int r = dive(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int climb(int depth) {
  if (depth == 0)
    return 0;
  int r = climb(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int jumper(void) {
  if (setjmp(env) == 0)
    return dive(30);
  // Back from 30 frames down: returns from here on must not underflow.
  return climb(40) + 1000;
}

int main(void) {
  printf("jumper=%d\n", jumper());
  return 0;
}
