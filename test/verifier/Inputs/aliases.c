// Instrumented functions reached through a strong alias, a weak alias, an
// ifunc and a weak definition. The pass calls aliases and weak definitions
// uncounted (`call f` and, in instrumented callers, `call
// __rsb_reset_depth`), because the link may send the name elsewhere.
__attribute__((noinline)) int impl_a(int x) { return x * 2 + 1; }
__attribute__((noinline)) int impl_b(int x) { return x * 3 + 2; }
int strong_a(int) __attribute__((alias("impl_a")));
int weak_b(int) __attribute__((weak, alias("impl_b")));
__attribute__((weak, noinline)) int weak_def(int x) { return x - 7; }

// Selects one of the two at load time (the flag is still 0 then). As an
// ifunc resolver it is not instrumented itself (docs/design.md).
int prefer_a;
static int (*pick(void))(int) { return prefer_a ? impl_a : impl_b; }
int picked(int) __attribute__((ifunc("pick")));

__attribute__((noinline)) int use(int x) {
  return strong_a(x) + weak_b(x) + picked(x) + weak_def(x);
}
