/* Built without rsb-stuff: returns with plain rets, 40 deep. */
long plain_deep(long n) {
  long (*volatile self)(long) = plain_deep;
  return n <= 0 ? 1 : self(n - 1) + 2;
}
