// A shared library that calls a function it does not define: the call goes
// through the link-time fallback __rsb_entry.plain_leaf, exported.
int plain_leaf(int x);

__attribute__((noinline)) int lib_twice(int x) { return 2 * x; }

int lib_entry(int x) { return plain_leaf(lib_twice(x)) + 1; }
