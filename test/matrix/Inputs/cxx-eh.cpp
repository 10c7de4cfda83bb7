// flags-matrix program cxx-eh: virtual calls, a template and an inline
// function (COMDAT), an exception thrown through 30 frames and caught 10
// frames deep, after which those frames return.
#include <cstdio>
#include <stdexcept>

struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
};

struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
};

template <class T> __attribute__((noinline)) T twice(T x) { return x + x; }

__attribute__((noinline)) inline int thrice(int x) { return 3 * x; }

__attribute__((noinline)) int dive(int depth) {
  if (depth == 0)
    throw std::runtime_error("bottom");
  int r = dive(depth - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) int level(int n) {
  if (n == 0) {
    try {
      return dive(30);
    } catch (const std::exception &e) {
      std::printf("caught %s\n", e.what());
      return 0;
    }
  }
  int r = level(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

int main() {
  Square sq(7);
  const Shape &s = sq;
  std::printf("area=%d twice=%d thrice=%d\n", s.area(), twice(21), thrice(14));
  std::printf("level=%d\n", level(10));
  return 0;
}
