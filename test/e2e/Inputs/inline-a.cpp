#include "inline.h"
#include <cstdio>

int from_a(int x) { return shared_inline(x) + shared_twice(x); }

int main() {
  std::printf("a=%d b=%d\n", from_a(3), from_b(4));
  return 0;
}
