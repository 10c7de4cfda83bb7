/* An instrumented shared object: its prefixes use the initial-exec
 * counter, which carries no mark an executable's call site accepts. */
long shared_deep(long n) {
  long (*volatile self)(long) = shared_deep;
  return n <= 0 ? 1 : self(n - 1) + 3;
}
