// clang with the plugin loaded (either route) but without
// -mllvm -x86-rsb-stuff produces exactly what clang without it does.

// RUN: %clang -target x86_64-linux-gnu -O2 -S %s -o %t.base.s
// RUN: %clang -fplugin=%plugin -target x86_64-linux-gnu -O2 -S %s -o %t.fplugin.s
// RUN: diff %t.base.s %t.fplugin.s
// RUN: %clang -fpass-plugin=%plugin -target x86_64-linux-gnu -O2 -S %s \
// RUN:   -o %t.fpassplugin.s
// RUN: diff %t.base.s %t.fpassplugin.s
// RUN: %clang -target x86_64-linux-gnu -O2 -c %s -o %t.base.o
// RUN: %clang -fplugin=%plugin -target x86_64-linux-gnu -O2 -c %s -o %t.fplugin.o
// RUN: cmp %t.base.o %t.fplugin.o
// RUN: %clang -target x86_64-linux-gnu -O0 -g -c %s -o %t.base0.o
// RUN: %clang -fplugin=%plugin -target x86_64-linux-gnu -O0 -g -c %s \
// RUN:   -o %t.fplugin0.o
// RUN: cmp %t.base0.o %t.fplugin0.o
// RUN: FileCheck %s --implicit-check-not=__rsb < %t.fplugin.s

// CHECK-LABEL: {{^}}f:
// CHECK:         retq

int ext(int);
static __attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("");
  return x * 3;
}
int f(int x) { return leaf(x) + ext(x); }
