// flags-matrix program dso, the shared library: called from the
// executable, it recurses and calls back into the executable both through a
// function pointer and directly by name.
int main_visit(int depth);

__attribute__((noinline)) int lib_walk(int n, int (*callback)(int)) {
  if (n == 0)
    return callback(20) + main_visit(20);
  int r = lib_walk(n - 1, callback);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int lib_square(int x) { return x * x; }
