// clang -mfunction-return=thunk-extern sends every return to a
// user-provided __x86_return_thunk; rsb-stuff needs them to go through its
// own. The compile fails with an error for the function, naming the way
// out; it was skipped with only a remark, a silently unprotected program.

// RUN: not %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic \
// RUN:   -mfunction-return=thunk-extern -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=error:

// CHECK: error: x86-rsb-stuff: 'thunked' cannot be instrumented: its returns already go through __x86_return_thunk (-mfunction-return=thunk-extern)

void thunked(void) { __asm__ volatile(""); }
