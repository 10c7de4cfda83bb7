/* The calls the pass counts in a function's body: through a pointer (the
 * mark check, in place or the runtime's shared copy), and through a
 * constant table of instrumented functions, in a loop that keeps the
 * table's address in a register and in a switch that jumps through its own
 * table. */
typedef long (*op)(long);

__attribute__((noinline)) static long add(long x) { return x + 1; }
__attribute__((noinline)) static long triple(long x) { return x * 3; }
static const op ops[] = {add, triple};

__attribute__((noinline)) long through_pointer(op f, long x) {
  return f(x) + 1;
}

__attribute__((noinline)) long loop(int n, const unsigned char *code) {
  long acc = 0;
  for (int i = 0; i < n; i++)
    acc = ops[code[i] & 1](acc);
  return acc;
}

__attribute__((noinline)) long with_switch(int n, const unsigned char *code) {
  long acc = 0;
  for (int i = 0; i < n; i++) {
    switch (code[i]) {
    case 0: acc += 3; break;
    case 1: acc ^= 7; break;
    case 2: acc = ops[code[i + 1] & 1](acc); break;
    case 3: acc *= 5; break;
    case 4: acc -= 11; break;
    case 6: acc = acc / 3; break;
    default: acc = acc % 7;
    }
  }
  return acc;
}

int main(int argc, char **argv) {
  const unsigned char *code = (const unsigned char *)argv[0];
  return (int)(through_pointer(add, argc) + loop(argc, code) +
               with_switch(argc, code));
}
