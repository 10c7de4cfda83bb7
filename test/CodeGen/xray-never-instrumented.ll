; "function-instrument"="xray-never" (clang's
; __attribute__((xray_never_instrument))) tells XRay never to patch the
; function: it gets no sleds and returns with a plain `retq` (see the OFF
; run). Nothing stops rsb-stuff from instrumenting it, and it should: it
; must not lose its protection because XRay is told to keep away from it.
;
; Regression test for a fixed bug: skipReason() treats any "function-instrument" attribute as
; "XRay patches its returns", including the value "xray-never", so the
; function is skipped (no prefix, plain `retq`, callers not redirected).
; Only "xray-always" and "xray-instruction-threshold" can produce sleds
; (llvm/lib/CodeGen/XRayInstrumentation.cpp returns early for xray-never).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: count 0 < %t.remarks
; RUN: FileCheck %s < %t.s
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s
;; Without the plugin: no XRay sleds, a plain return.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF-LABEL: {{^}}never:
; OFF-NOT:     xray_sled
; OFF:         retq
; OFF-NOT:     xray_sled

; CHECK:       __rsb_entry.never:
; CHECK:       {{^}}never:
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:         je __rsb_refill_return # TAILCALL
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq __rsb_entry.never@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL

define i32 @never(i32 %x) noinline "function-instrument"="xray-never" {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @caller(i32 %x) {
  %a = call i32 @never(i32 %x)
  call void asm sideeffect "", ""()
  ret i32 %a
}
