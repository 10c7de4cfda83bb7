/* Plain code that instrumented callers reset after. */
__attribute__((noinline)) int plain_leaf(int x) { return x + 1; }
