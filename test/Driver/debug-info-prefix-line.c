// Each prefix has a line-table row of its own, the function's line (not a
// statement, so that no line breakpoint lands there): a symbolizer puts
// `__rsb_entry.f` on f's line instead of the previous function's last line.
// The first function's prefix lies before the compile unit's address range
// and gets no row. (Counted indirect calls are off: they would move the
// functions, which may be called through pointers, by their alignment.)

/// The addresses and sizes below are those of the thunk form of returns.
// RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
// RUN:   -target x86_64-linux-gnu -O2 -g -fno-pic -c %s -o %t.o \
// RUN:   -mllvm -x86-rsb-stuff-count-indirect=false
// RUN: llvm-symbolizer --obj=%t.o 0x36 0x56 | FileCheck %s
// RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
// RUN: llvm-dwarfdump --debug-line %t.o | FileCheck %s --check-prefix=LINE
// RUN: llvm-dwarfdump --verify %t.o | FileCheck %s --check-prefix=VERIFY

// SYM-DAG: 0000000000000036 10 FUNC LOCAL DEFAULT [[#]] __rsb_entry.leaf
// SYM-DAG: 0000000000000056 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.g

// CHECK:      __rsb_entry.leaf
// CHECK-NEXT: debug-info-prefix-line.c:[[#@LINE+16]]:0
// CHECK:      __rsb_entry.g
// CHECK-NEXT: debug-info-prefix-line.c:[[#@LINE+21]]:0

// The rows at the prefixes (leaf's entry at 0x36, g's tail alias at 0x54,
// each right after the int3 filler, which stays on the previous row like
// the plain build's alignment NOPs) are not statements.
// LINE:      0x0000000000000036 [[#@LINE+9]] 0 {{[0-9]+}} 0 0 0{{ *$}}
// LINE:      0x0000000000000054 [[#@LINE+15]] 0 {{[0-9]+}} 0 0 0{{ *$}}

// VERIFY: No errors.

int ext(int);

int f(int x);

static __attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("");
  return x * 3;
}

int f(int x) { return leaf(x) + ext(x); }

int g(int x) {
  return ext(x + 1);
}
