// -g must not change the instrumented code. In particular a call that never
// returns (abort) ends its block and needs no credit reset after it, whether
// or not debug instructions (DBG_VALUE) follow it in the block.
//
// Regression test for a fixed bug: needsResetAfter() tests `&Call == &MBB.back()`, and with -g
// the block's last instruction after `callq abort` is a DBG_VALUE, so a
// `callq __rsb_reset_depth` is inserted after the noreturn call with -g only
// (dead code, but the .text differs from the build without -g). Comparing
// against MBB.getLastNonDebugInstr() would fix it.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -c %s -o %t.o
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -g -c %s -o %t.g.o
// RUN: llvm-objdump -dr --no-show-raw-insn %t.o | FileCheck %s
// RUN: llvm-objdump -dr --no-show-raw-insn %t.g.o | FileCheck %s
// RUN: llvm-objcopy --dump-section=.text=%t.text %t.o
// RUN: llvm-objcopy --dump-section=.text=%t.g.text %t.g.o
// RUN: cmp %t.text %t.g.text

// The tail call to printf calls it from a frame of its own and ends in the
// reset, the call to abort ends the function without one.
// CHECK-LABEL: <check>:
// CHECK:         leaq -0x8(%rsp), %rsp
// CHECK-NEXT:    callq
// CHECK-NEXT:      R_X86_64_PLT32 printf-0x4
// CHECK-NEXT:    leaq 0x8(%rsp), %rsp
// CHECK-NEXT:    jmp
// CHECK-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
// CHECK:         callq
// CHECK-NEXT:      R_X86_64_PLT32 abort-0x4
// CHECK-EMPTY:

void abort(void);
int printf(const char *, ...);

int check(int x, int y) {
  if (x < 0)
    abort();
  return printf("%d\n", x + y);
}
