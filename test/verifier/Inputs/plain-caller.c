// Built without rsb-stuff: calls an instrumented function at its start,
// uncounted, which is safe.
int impl_b(int);
int plain_caller(int x) { return impl_b(x) + 1; }
