// clang -fxray-instrument: XRay's sleds are NOPs that its runtime may patch,
// at any time, into calls to handlers the counter cannot see (the entry and
// tail-call sleds) or into a jump to a trampoline that returns with a plain
// `ret` (the exit sled, whose `retq` XRay owns and restores). The functions
// are instrumented (they were all skipped, with only a remark, before): the
// prefix as usual, a credit reset right after the entry sled and right
// before the exit sled (a cleared credit also covers the plain `ret` that
// ends the counted call), the sleds themselves untouched.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -fxray-instrument \
// RUN:   -fxray-instruction-threshold=1 -S %s -o - | FileCheck %s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -fxray-instrument \
// RUN:   -fxray-instruction-threshold=1 -Rpass-missed=x86-rsb-stuff \
// RUN:   -c %s -o /dev/null 2>&1 | count 0

// CHECK-LABEL: __rsb_entry.traced:
// CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
// CHECK-LABEL: {{^}}traced:
// CHECK:       .Lxray_sled_0:
// CHECK-NEXT:    .ascii "\353\t"
// CHECK-NEXT:    nopw 512(%rax,%rax)
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}
// CHECK:         callq __rsb_reset_depth{{$}}
// CHECK-NEXT:    .p2align 1
// CHECK-NEXT:  .Lxray_sled_1:
// CHECK-NEXT:    retq
// CHECK-NEXT:    nopw %cs:512(%rax,%rax)

// CHECK-LABEL: __rsb_entry.always:
// CHECK-LABEL: {{^}}always:
// CHECK:       .Lxray_sled_2:
// CHECK-NEXT:    .ascii "\353\t"
// CHECK-NEXT:    nopw 512(%rax,%rax)
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}

// Calls to them are counted.
// CHECK-LABEL: {{^}}caller:
// CHECK:         callq __rsb_entry.traced{{$}}
// CHECK:         callq __rsb_entry.always{{$}}

__attribute__((noinline)) int traced(int x) {
  __asm__ volatile("");
  return x * 3;
}

__attribute__((noinline, xray_always_instrument)) int always(int x) {
  __asm__ volatile("");
  return x + 5;
}

int caller(int x) { return traced(x) + always(x); }
