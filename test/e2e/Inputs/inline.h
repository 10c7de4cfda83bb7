// An inline function and a template defined in every object that includes
// this header: the linker keeps one COMDAT copy of each, entry and all.
#pragma once
inline __attribute__((noinline)) int shared_inline(int x) { return x * 5; }

template <class T> __attribute__((noinline)) T shared_twice(T x) {
  return x + x;
}

int from_a(int x);
int from_b(int x);
