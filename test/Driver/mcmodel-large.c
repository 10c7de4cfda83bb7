// -mcmodel=large makes every call indirect (through the GOT and a
// register), so no call can be counted and each is followed by a credit
// reset: safe, but the user hears of the cost once per module (it was
// silent before). Functions keep their prefixes and thunk returns.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -mcmodel=large -S %s -o %t.s \
// RUN:   2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s < %t.s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -S %s -o /dev/null 2>&1 \
// RUN:   | count 0

// WARN:     warning: x86-rsb-stuff: -mcmodel=large makes every call indirect: no call is counted and each is followed by a credit reset (safe, but slower) [-Wbackend-plugin]
// WARN-NOT: warning:

// CHECK-LABEL: __rsb_entry.caller:
// CHECK-LABEL: {{^}}caller:
// CHECK:         callq *{{.*}}
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}
// CHECK:         jmp __rsb_return_thunk # TAILCALL

int ext(int);
int caller(int x) { return ext(x) + 1; }
