// -mcmodel=large makes every call indirect (through the GOT and a
// register). In an executable each call is then counted when the run-time
// mark check (the runtime's copy, which also makes the call) finds the
// callee's accounting entry, and followed by a reset otherwise; a shared object has no check, so every call is followed by a
// reset. Safe either way, but the user hears of the cost once per module.
// Functions keep their prefixes and thunk returns.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -mcmodel=large -S %s -o %t.s \
// RUN:   2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -mcmodel=large -fPIC -S %s \
// RUN:   -o - 2>/dev/null | FileCheck %s --check-prefix=PIC
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -S %s -o /dev/null 2>&1 \
// RUN:   | count 0

// WARN:     warning: x86-rsb-stuff: -mcmodel=large makes every call indirect: a call is counted only when a run-time check finds its callee's accounting entry (executables only), any other is followed by a credit reset (safe, but slower) [-Wbackend-plugin]
// WARN-NOT: warning:

// CHECK-LABEL: __rsb_entry.caller:
// CHECK-LABEL: {{^}}caller:
// CHECK:         movq (%rcx,%rax), %r11
// CHECK-NEXT:    callq __rsb_icall_r11{{$}}
// CHECK:         je __rsb_refill_return # TAILCALL

// PIC-LABEL: {{^}}caller:
// PIC-NOT:     __rsb_prefix_mark
// PIC:         callq *{{.*}}
// PIC-NEXT:    callq __rsb_reset_depth{{$}}
// PIC:         je __rsb_refill_return # TAILCALL

int ext(int);
int caller(int x) { return ext(x) + 1; }
