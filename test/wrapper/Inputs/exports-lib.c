/* A library that calls back into the program (callback), and tail-calls
   it (callback_tail). */
int callback(int x);
int callback_tail(int x);

__attribute__((noinline)) int lib_call(int x) { return callback(x) + 1; }
int lib_tail(int x) { return callback_tail(x); }
