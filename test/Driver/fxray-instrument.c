// clang -fxray-instrument puts "xray-instruction-threshold" on every function
// and __attribute__((xray_always_instrument)) puts
// "function-instrument"="xray-always": XRay may patch their returns, so
// rsb-stuff skips them all with a remark instead of failing: no prefix,
// XRay's sleds kept, no credit resets (caller is skipped as well). Whether
// XRay does patch a function under the threshold is only known after
// instruction selection, so the IR attribute decides.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -fxray-instrument \
// RUN:   -fxray-instruction-threshold=1 -Rpass-missed=x86-rsb-stuff \
// RUN:   -S %s -o %t.s 2>%t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks \
// RUN:   --implicit-check-not=remark: --implicit-check-not=error:
// RUN: FileCheck %s < %t.s --implicit-check-not=__rsb
// Without -fxray-instrument: instrumented as usual, counted calls.
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=NOXRAY

// REMARK-DAG: remark: 'traced' not instrumented: XRay patches its returns
// REMARK-DAG: remark: 'always' not instrumented: XRay patches its returns
// REMARK-DAG: remark: 'caller' not instrumented: XRay patches its returns

// The entry sled, then the exit sled: a `retq` that XRay patches.
// CHECK-LABEL: {{^}}traced:
// CHECK:       .Lxray_sled_{{[0-9]+}}:
// CHECK-NEXT:    .ascii "\353\t"
// CHECK:       .Lxray_sled_{{[0-9]+}}:
// CHECK-NEXT:    retq
// CHECK-LABEL: {{^}}always:
// CHECK:       .Lxray_sled_{{[0-9]+}}:
// CHECK-NEXT:    .ascii "\353\t"
// CHECK:       .Lxray_sled_{{[0-9]+}}:
// CHECK-NEXT:    retq
// CHECK-LABEL: {{^}}caller:
// CHECK:         callq traced{{$}}
// CHECK-NEXT:    movl
// CHECK-NEXT:    movl
// CHECK-NEXT:    callq always{{$}}
// CHECK:       .Lxray_sled_{{[0-9]+}}:
// CHECK-NEXT:    retq

// NOXRAY:       __rsb_entry.traced:
// NOXRAY:       __rsb_entry.always:
// NOXRAY:       __rsb_entry.caller:
// NOXRAY-LABEL: {{^}}caller:
// NOXRAY:         callq __rsb_entry.traced{{$}}
// NOXRAY:         callq __rsb_entry.always{{$}}
// NOXRAY:         jmp __rsb_return_thunk # TAILCALL

__attribute__((noinline)) int traced(int x) {
  __asm__ volatile("");
  return x * 3;
}

__attribute__((noinline, xray_always_instrument)) int always(int x) {
  __asm__ volatile("");
  return x + 5;
}

int caller(int x) { return traced(x) + always(x); }
