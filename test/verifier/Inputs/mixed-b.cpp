// Built without rsb-stuff: its own copy of inl (mixed-a.cpp), with a
// plain ret, called uncounted from b.
inline __attribute__((noinline)) int inl(int x) { return x * 3 + 1; }
int b(int x) { return inl(x + 1); }
