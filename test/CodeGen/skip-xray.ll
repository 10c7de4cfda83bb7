; XRay patches a function's entry and its returns at run time: its exit sleds
; (PATCHABLE_RET) are `retq` that the XRay runtime rewrites, so they cannot
; become jumps to the return thunk. Functions XRay may instrument, that is
; with "function-instrument"="xray-always" or with an
; "xray-instruction-threshold" (what clang -fxray-instrument sets), are
; skipped, decided from the IR: a missed remark, no prefix, the sleds kept,
; calls to them not redirected but followed by a credit reset. It is not a
; hard error any more.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks \
; RUN:   --implicit-check-not=remark: --implicit-check-not=error:
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.traced \
; RUN:   --implicit-check-not=__rsb_entry.threshold \
; RUN:   --implicit-check-not=__rsb_tail.traced \
; RUN:   --implicit-check-not=__rsb_tail.threshold
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks \
; RUN:   --implicit-check-not=remark: --implicit-check-not=error:
; RUN: FileCheck %s < %t.clang.s --implicit-check-not=__rsb_entry.traced \
; RUN:   --implicit-check-not=__rsb_entry.threshold
;; Without the plugin's option the same sleds are there.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; REMARK-DAG: remark: {{.*}}'traced' not instrumented: XRay patches its returns
; REMARK-DAG: remark: {{.*}}'threshold' not instrumented: XRay patches its returns

; OFF-LABEL: {{^}}traced:
; OFF:       .Lxray_sled_1:
; OFF-NEXT:    retq
; OFF-LABEL: {{^}}threshold:
; OFF:       .Lxray_sled_3:
; OFF-NEXT:    retq

; CHECK:       .type traced,@function
; CHECK-NEXT:  traced:
; CHECK-NOT:     __rsb
; CHECK:       .Lxray_sled_1:
; CHECK-NEXT:    retq
; CHECK-NEXT:    nopw
; CHECK-NEXT:  .Lfunc_end0:
; CHECK:       .type threshold,@function
; CHECK-NEXT:  threshold:
; CHECK-NOT:     __rsb
; CHECK:       .Lxray_sled_3:
; CHECK-NEXT:    retq
; CHECK-NEXT:    nopw
; CHECK-NEXT:  .Lfunc_end1:
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq traced@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq threshold@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         jmp __rsb_return_thunk # TAILCALL

define i32 @traced(i32 %x) noinline "function-instrument"="xray-always" {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @threshold(i32 %x) noinline "xray-instruction-threshold"="1" {
  %r = mul i32 %x, 5
  ret i32 %r
}

define i32 @caller(i32 %x) {
  %a = call i32 @traced(i32 %x)
  %b = call i32 @threshold(i32 %a)
  call void asm sideeffect "", ""()
  ret i32 %b
}
