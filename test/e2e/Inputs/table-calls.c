/* Dispatch through constant tables of instrumented functions (counted with
 * no mark check): shallow handlers, a handler that recurses 40 deep (the
 * counter must refill on the way back up), one that dispatches through the
 * table again, one that calls the C library. TABLE_LIB builds the same
 * dispatch as a shared object (initial-exec counter). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long (*handler)(unsigned long, unsigned);

static unsigned long op_add(unsigned long acc, unsigned arg) {
  return acc + arg;
}
static unsigned long op_mix(unsigned long acc, unsigned arg) {
  return (acc ^ (acc >> 7)) * 0x9e3779b97f4a7c15ul + arg;
}
static __attribute__((noinline)) unsigned long deep(unsigned long acc,
                                                    unsigned n) {
  if (!n)
    return acc;
  unsigned long r = deep(acc * 3 + n, n - 1);
  return r * 31 + (r >> 60) + n;
}
static unsigned long op_deep(unsigned long acc, unsigned arg) {
  return deep(acc, 40 + arg % 3);
}
static unsigned long op_libc(unsigned long acc, unsigned arg) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lu", acc + arg);
  return acc + strlen(buf);
}
static unsigned long op_again(unsigned long acc, unsigned arg);

static const handler table[] = {op_add, op_mix, op_deep, op_libc, op_again};
#define OPS (sizeof table / sizeof table[0])

static unsigned long op_again(unsigned long acc, unsigned arg) {
  return arg ? table[arg % 2](acc, arg / 2) : acc;
}

#ifdef TABLE_LIB
unsigned long run_lib(unsigned rounds)
#else
static __attribute__((noinline)) unsigned long run(unsigned rounds)
#endif
{
  unsigned long acc = 1;
  unsigned seed = 7;
  for (unsigned i = 0; i < rounds; i++) {
    seed = seed * 1103515245u + 12345u;
    acc = table[(seed >> 20) % OPS](acc, seed >> 8 & 0xff);
  }
  return acc;
}

#ifndef TABLE_LIB
unsigned long run_lib(unsigned rounds);

int main(int argc, char **argv) {
  unsigned rounds = argc > 1 ? (unsigned)atoi(argv[1]) : 2000;
  printf("here: %lu\n", run(rounds));
  printf("library: %lu\n", run_lib(rounds));
  return 0;
}
#endif
