// clang -mfunction-return=thunk-extern: returns already go through
// __x86_return_thunk, so rsb-stuff must skip the function (remark, no
// prefix, no tail accounting or credit reset before the thunk jump).

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic \
// RUN:   -mfunction-return=thunk-extern -Rpass-missed=x86-rsb-stuff \
// RUN:   -S %s -o %t.s 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.thunked \
// RUN:   --implicit-check-not=__rsb_tail_account \
// RUN:   --implicit-check-not=__rsb_reset_depth

// REMARK: remark: 'thunked' not instrumented: returns already go through -mfunction-return=thunk-extern

// CHECK:       .type thunked,@function
// CHECK-NEXT:  thunked:
// CHECK:         jmp __x86_return_thunk
// CHECK:       .Lfunc_end0:

void thunked(void) { __asm__ volatile(""); }
