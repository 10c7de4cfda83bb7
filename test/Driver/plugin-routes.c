// clang can load the plugin with -fplugin= or with -fpass-plugin=; both
// register the options in time for -mllvm -x86-rsb-stuff and instrument, in
// the -O0 and the -O2 pipelines alike, with identical results.

// RUN: %clang -fplugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu \
// RUN:   -O2 -fno-pic -S %s -o - | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff \
// RUN:   -target x86_64-linux-gnu -O2 -fno-pic -S %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang -fplugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu \
// RUN:   -O0 -fno-pic -S %s -o - | FileCheck %s --check-prefixes=CHECK,O0
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff \
// RUN:   -target x86_64-linux-gnu -O0 -fno-pic -S %s -o - \
// RUN:   | FileCheck %s --check-prefixes=CHECK,O0
//
// RUN: %clang -fplugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu \
// RUN:   -O2 -fno-pic -c %s -o %t.fplugin.o
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff \
// RUN:   -target x86_64-linux-gnu -O2 -fno-pic -c %s -o %t.fpassplugin.o
// RUN: cmp %t.fplugin.o %t.fpassplugin.o
// RUN: llvm-objdump -dr %t.fpassplugin.o | FileCheck %s --check-prefix=OBJ
//
// -fpass-plugin without the option: no instrumentation.
// RUN: %clang -fpass-plugin=%plugin -target x86_64-linux-gnu -O2 -fno-pic \
// RUN:   -S %s -o - | FileCheck %s --check-prefix=OFF

int ext(int);

static __attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("");
  return x * 3;
}

int f(int x) { return leaf(x) + ext(x); }

// CHECK-LABEL: .type f,@function
// CHECK:       __rsb_entry.f:
// CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
// CHECK:       {{^}}f:
// O0:            pushq %rbp
// O0:            movq %rsp, %rbp
// CHECK:         callq __rsb_entry.leaf{{$}}
// CHECK:         callq __rsb_entry.ext{{$}}
// CHECK-NOT:     __rsb_reset_depth
// CHECK-NOT:     {{^[[:space:]]+retq}}
// CHECK:         je __rsb_refill_return
// CHECK:       .Lfunc_end0:
// CHECK:       __rsb_entry.leaf:
// CHECK-NEXT:    .cfi_startproc
// CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
// CHECK:       {{^}}leaf:
// CHECK-NOT:     {{^[[:space:]]+retq}}
// CHECK:         je __rsb_refill_return


// OBJ:      <__rsb_entry.f>:
// OBJ-NEXT:   64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
// OBJ-NEXT:     R_X86_64_TPOFF32 __rsb_depth
// OBJ-EMPTY:
// OBJ-NEXT: 0000000000000010 <f>:

// OFF-NOT: __rsb
// OFF:     {{^}}f:
// OFF:       callq leaf
// OFF-NOT: __rsb
