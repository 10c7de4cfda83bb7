// Retargeted calls keep their DW_TAG_call_site entries (debuggers use them
// for entry values and tail-call frames): the pass sends them to IR
// declarations of `__rsb_entry.f` / `__rsb_tail.f` that carry a declaration
// of f's subprogram. Before, a call retargeted to a bare symbol lost its
// entry: 5 with plain clang, 0 with the plugin for this file.

// RUN: %clang -target x86_64-linux-gnu -O2 -g -fno-pic -c %s -o %t.plain.o
// RUN: llvm-dwarfdump --debug-info %t.plain.o | FileCheck %s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -g -fno-pic -c %s -o %t.o
// RUN: llvm-dwarfdump --debug-info %t.o | FileCheck %s
// RUN: llvm-dwarfdump --verify %t.o | FileCheck %s --check-prefix=VERIFY
// RUN: llvm-objdump -dr --no-show-raw-insn %t.o | FileCheck %s --check-prefix=OBJ

// CHECK:       DW_AT_name ("f")
// CHECK:       DW_TAG_call_site{{$}}
// CHECK-NEXT:    DW_AT_call_origin ({{.*}} "leaf")
// CHECK:       DW_TAG_call_site{{$}}
// CHECK-NEXT:    DW_AT_call_origin ({{.*}} "ext")
// CHECK:       DW_AT_name ("g")
// CHECK:       DW_TAG_call_site{{$}}
// CHECK-NEXT:    DW_AT_call_origin ({{.*}} "ext")
// CHECK:       DW_AT_name ("h")
// CHECK:       DW_TAG_call_site{{$}}
// CHECK-NEXT:    DW_AT_call_origin ({{.*}} "leaf")
// CHECK:       DW_TAG_call_site{{$}}
// CHECK-NEXT:    DW_AT_call_origin ({{.*}} "g")
// CHECK-NEXT:    DW_AT_call_tail_call (true)
// CHECK-NOT:   DW_TAG_call_site{{$}}

// VERIFY: No errors.

// The calls themselves are retargeted as always.
// OBJ-LABEL: <f>:
// OBJ:         callq {{.*}} <__rsb_entry.leaf>
// OBJ:         R_X86_64_PLT32 __rsb_entry.ext-0x4
// OBJ-LABEL: <h>:
// OBJ:         callq {{.*}} <__rsb_entry.leaf>
// OBJ:         R_X86_64_PLT32 g-0x4

int ext(int);

static __attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("");
  return x * 3;
}

int f(int x) { return leaf(x) + ext(x); }

__attribute__((noinline)) int g(int x) { return ext(x + 1) * 2; }

int h(int x) { return g(leaf(x)); }
