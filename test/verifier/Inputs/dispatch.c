// Indirect jumps that stay inside an instrumented function or are
// accounted tail calls, as clang emits them: a switch lowered to a jump
// table, a computed goto through a table of labels, direct-threaded code
// (label addresses stored at run time and loaded without an index), and
// indirect tail calls. Prints 0 when all of them computed what they should.
#include <stdio.h>

volatile int sink;

__attribute__((noinline)) int step(int x) { return x + 1; }
__attribute__((noinline)) int twice(int x) { return x * 2; }

__attribute__((noinline)) int jump_table(int op, int x) {
  switch (op) {
  case 0: sink = 1; return step(x) + 5;
  case 1: return twice(x) * 3;
  case 2: sink = x; return 11;
  case 3: return step(x * 5) - twice(x);
  case 4: sink = 9; return x + 19;
  case 5: return step(2) * x;
  case 6: sink = x * 7; return 41;
  case 7: return twice(x + 3);
  default: return 0;
  }
}

__attribute__((noinline)) long label_table(const unsigned char *code,
                                           long acc) {
  static void *const ops[] = {&&add, &&mul, &&call, &&end};
  goto *ops[*code++];
add:
  acc += 3;
  goto *ops[*code++];
mul:
  acc *= 2;
  goto *ops[*code++];
call:
  acc = step(acc);
  goto *ops[*code++];
end:
  return acc;
}

__attribute__((noinline)) long threaded(int n, long acc) {
  void *code[8];
  void **pc = code;
  for (int i = 0; i < n && i < 7; i++)
    code[i] = (i & 1) ? &&mul : &&add;
  code[n < 7 ? n : 7] = &&end;
  goto **pc++;
add:
  acc += 3;
  goto **pc++;
mul:
  acc = twice(acc);
  goto **pc++;
end:
  return acc;
}

int (*volatile hook)(int) = step;
__attribute__((noinline)) int tail_through_pointer(int x) {
  return hook(x + 1);
}
__attribute__((noinline)) int tail_through_argument(int (*f)(int), int x) {
  return f(x);
}

int main(int argc, char **argv) {
  (void)argv;
  static const unsigned char code[] = {0, 1, 2, 0, 3};
  int bad = 0;
  bad |= jump_table(argc, 4) != 24;         // case 1: twice(4) * 3
  bad |= label_table(code, argc) != 12;     // ((1 + 3) * 2 + 1) + 3
  bad |= threaded(3, argc) != 11;           // twice(1 + 3) + 3
  bad |= tail_through_pointer(argc) != 3;
  bad |= tail_through_argument(twice, argc) != 2;
  printf("%d\n", bad);
  return bad;
}
