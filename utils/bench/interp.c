/* interp: an interpreter-style dispatch loop.
 *
 * Small handler functions called through a function-pointer table:
 * indirect calls, which are never counted (and clear the credit after
 * them), returning through the thunk. Usage: interp [RUNS]; runs a fixed
 * pseudo-random 4096-instruction program that many times. */
#include <stdio.h>
#include <stdlib.h>

#define PROGRAM 4096

typedef unsigned long (*handler)(unsigned long acc, unsigned arg);

static unsigned long op_add(unsigned long acc, unsigned arg) {
  return acc + arg;
}
static unsigned long op_sub(unsigned long acc, unsigned arg) {
  return acc - arg * 3;
}
static unsigned long op_xor(unsigned long acc, unsigned arg) {
  return acc ^ ((unsigned long)arg << 7);
}
static unsigned long op_mul(unsigned long acc, unsigned arg) {
  return acc * (arg | 1);
}
static unsigned long op_rot(unsigned long acc, unsigned arg) {
  unsigned s = arg & 63;
  return s ? (acc << s) | (acc >> (64 - s)) : acc;
}
static unsigned long op_mix(unsigned long acc, unsigned arg) {
  acc ^= acc >> 29;
  return acc * 0xbf58476d1ce4e5b9ul + arg;
}
static unsigned long op_min(unsigned long acc, unsigned arg) {
  return acc < arg ? acc + 1 : acc - (acc >> 3);
}
static unsigned long op_nop(unsigned long acc, unsigned arg) {
  (void)arg;
  return acc;
}

static handler table[8] = {op_add, op_sub, op_xor, op_mul,
                           op_rot, op_mix, op_min, op_nop};

struct insn {
  unsigned char op;
  unsigned arg;
};

static struct insn program[PROGRAM];

static __attribute__((noinline)) unsigned long run(unsigned long acc) {
  for (int pc = 0; pc < PROGRAM; pc++)
    acc = table[program[pc].op](acc, program[pc].arg);
  return acc;
}

int main(int argc, char **argv) {
  long runs = argc > 1 ? atol(argv[1]) : 8000;
  unsigned seed = 7;
  unsigned long acc = 1;
  for (int i = 0; i < PROGRAM; i++) {
    seed = seed * 1103515245u + 12345u;
    program[i].op = (unsigned char)(seed >> 28 & 7);
    program[i].arg = seed >> 8 & 0xffff;
  }
  for (long r = 0; r < runs; r++)
    acc = run(acc);
  printf("interp %ld: %lu\n", runs, acc);
  return 0;
}
