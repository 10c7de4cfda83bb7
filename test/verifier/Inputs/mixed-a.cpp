// With mixed-b.cpp (built WITHOUT rsb-stuff): both define the inline
// function inl, main here calls it instrumented.
inline __attribute__((noinline)) int inl(int x) { return x * 3 + 1; }
int b(int);
int main(int argc, char **) { return (inl(argc) + b(argc)) == 0; }
