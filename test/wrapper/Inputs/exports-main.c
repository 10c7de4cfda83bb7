/* helper and private_tail are not exported: nothing outside the program
   calls them. callback and callback_tail are called by the library it is
   linked with, by_name is exported with --export-dynamic-symbol. */
int lib_call(int x);
int lib_tail(int x);

__attribute__((noinline)) int helper(int x) { return x * 3; }
__attribute__((noinline)) int private_tail(int x) { return x - 1; }
__attribute__((noinline)) int callback(int x) { return helper(x); }
__attribute__((noinline)) int callback_tail(int x) { return x + 7; }
__attribute__((noinline)) int by_name(int x) { return x + 9; }
int (*volatile tail_target)(int) = private_tail;

int main(int argc, char **argv) {
  (void)argv;
  return (lib_call(argc) + lib_tail(argc) + by_name(argc) +
          tail_target(argc)) == 22 ? 0 : 1;
}
