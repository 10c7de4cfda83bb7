/* Tail calls from another object go to __rsb_tail.callee. */
__attribute__((noinline)) int callee(int x) { return x * 3; }
__attribute__((noinline)) int other(int x) { return x + 1; }
int main(int argc, char **argv) {
  (void)argv;
  return callee(argc) + other(argc) == 5 ? 0 : 1;
}
