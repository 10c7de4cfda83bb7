; A callee-pop callee (tailcc, swifttailcc: `retq $n`) moves %rsp itself,
; so the call is immediately followed by the CFA adjustment for the popped
; bytes (`.cfi_adjust_cfa_offset`) in a function without a frame pointer.
; The credit reset after the call must come after that adjustment: while
; __rsb_reset_depth runs, its return address lies after the reset's call
; instruction, and an asynchronous unwinder (a profiler, a debugger, a signal
; handler taking a backtrace) must find the caller's CFA as it is after the
; pop, not before it.
;
; Regression test for a fixed bug: rewriteCalls() inserts the reset right after the call
; (std::next of the call), in front of the CFI_INSTRUCTION that belongs to
; the call, so the unwind rows at the reset call are off by the popped bytes.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s
;; Without the plugin, the adjustment follows the call.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF-LABEL: {{^}}caller:
; OFF:         callq tcc@PLT{{$}}
; OFF-NEXT:    .cfi_adjust_cfa_offset -[[#]]

; CHECK-LABEL: {{^}}caller:
; CHECK:         callq tcc@PLT{{$}}
; CHECK-NEXT:    .cfi_adjust_cfa_offset -[[#]]
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}

; Defined elsewhere: a definition here would be refused (refuse-callee-pop-cc.ll).
declare tailcc i64 @tcc(i64, i64, i64, i64, i64, i64, i64, i64)

define i64 @caller() uwtable {
  %a = call tailcc i64 @tcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)
  call void asm sideeffect "", ""()
  ret i64 %a
}
