; A tail call into a C library function of bounded depth: the credit is
; capped (not cleared), then the helper accounts the return the callee's
; plain `ret` will make, right before the jump (the order rsb-verify checks;
; capping before the shift credits one return less, never more). A
; conditional tail call needs its flags, which the `and` would write: it
; keeps the reset helper. An internal function (fastcc, the C convention on
; x86-64) caps the same.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - | FileCheck %s

declare i32 @strcoll(ptr, ptr)
declare ptr @malloc(i64)

; CHECK-LABEL: {{^}}tail_bounded:
; CHECK:         movq __rsb_cap.strcoll(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp strcoll@PLT # TAILCALL
define i32 @tail_bounded(ptr %a, ptr %b) {
  %r = tail call i32 @strcoll(ptr %a, ptr %b)
  ret i32 %r
}

; CHECK-LABEL: {{^}}tail_bounded_fastcc:
; CHECK:         movq __rsb_cap.strcoll(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp strcoll@PLT # TAILCALL
define internal fastcc i32 @tail_bounded_fastcc(ptr %a, ptr %b) {
  %r = tail call i32 @strcoll(ptr %a, ptr %b)
  ret i32 %r
}

define i32 @use_fastcc(ptr %a) {
  %r = call fastcc i32 @tail_bounded_fastcc(ptr %a, ptr %a)
  ret i32 %r
}

; CHECK-LABEL: {{^}}tail_unbounded:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq malloc@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
define ptr @tail_unbounded(i64 %n) {
  %r = tail call ptr @malloc(i64 %n)
  ret ptr %r
}

; CHECK-LABEL: {{^}}tail_conditional:
; CHECK:         callq __rsb_tail_account_flags{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CHECK-NEXT:    .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    jne strcoll@PLT # TAILCALL
define i32 @tail_conditional(ptr %a, ptr %b, i1 %c) {
  br i1 %c, label %t, label %f
t:
  %r = tail call i32 @strcoll(ptr %a, ptr %b)
  ret i32 %r
f:
  ret i32 0
}
