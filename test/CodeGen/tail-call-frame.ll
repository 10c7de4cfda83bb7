; A tail call to code that may return with a plain `ret` and go deep is
; called from a frame of its own, and the jump that ends the function goes
; to the reset, whose `ret` ends the call our caller counted with no credit
; left (RSBStuffReturns.cpp, callFromFrame). Only where one more return
; address moves no argument: every call of the module to the callee passes
; its arguments in registers. A tail call with stack arguments, a
; conditional one and one through a pointer keep the accounting and the
; reset before the jump.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s

declare i32 @puts(ptr)
declare i64 @ext8(i64, i64, i64, i64, i64, i64, i64, i64)

; CHECK-LABEL: {{^}}to_puts:
; CHECK-NOT:     __rsb_tail_account
; CHECK:         leaq -8(%rsp), %rsp
; CHECK-NEXT:    .cfi_adjust_cfa_offset 8
; CHECK-NEXT:    callq puts@PLT
; CHECK-NEXT:    leaq 8(%rsp), %rsp
; CHECK-NEXT:    .cfi_adjust_cfa_offset -8
; CHECK-NEXT:    jmp __rsb_reset_depth # TAILCALL
; CHECK-NEXT:  .Lfunc_end
define i32 @to_puts(ptr %s) {
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
}

; Two of the eight arguments are on the stack: the frame would move them.
; CHECK-LABEL: {{^}}to_ext8:
; CHECK-NOT:     leaq -8(%rsp)
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    jmp ext8@PLT # TAILCALL
define i64 @to_ext8(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g,
                    i64 %h) {
  %r = tail call i64 @ext8(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f,
                           i64 %g, i64 %h)
  ret i64 %r
}

; CHECK-LABEL: {{^}}to_pointer:
; CHECK-NOT:     leaq -8(%rsp)
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    jmpq *%{{r11|rax|rdi}} # TAILCALL
define i32 @to_pointer(ptr %fp, ptr %s) {
  %r = tail call i32 %fp(ptr %s)
  ret i32 %r
}

; A musttail call stays a jump (a frame at every step of a loop of them
; would grow the stack): its callee takes no register-arguments mark.
; CHECK-LABEL: {{^}}to_musttail:
; CHECK-NOT:     leaq -8(%rsp)
; CHECK:         callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    jmp mt@PLT # TAILCALL
declare i32 @mt(ptr)
define i32 @to_musttail(ptr %s) {
  %r = musttail call i32 @mt(ptr %s)
  ret i32 %r
}
