; Speculative load hardening checks, right after each call, that the return
; address the call left at -8(%rsp) is the label it put after the call. So
; in its functions a call keeps its place and its label: an indirect call is
; not split into the mark check's two calls (the label could only be defined
; once: "symbol '' is already defined"), and the credit is cleared after an
; uncounted call by the two stores of __rsb_reset_depth, not by calling it,
; which would overwrite the slot the check reads. Without hardening the same
; calls are checked and reset as usual.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=PIC

declare i32 @printf(ptr, ...)
@fp = global ptr null
@.str = private constant [4 x i8] c"%d\0A\00"

define i32 @hardened(i32 %x) speculative_load_hardening {
; CHECK-LABEL: hardened:
; CHECK-NOT:     __rsb_prefix_mark
; CHECK:         callq *%{{[a-z0-9]+}}
; CHECK-NEXT:  .Lslh_ret_addr[[A:[0-9]+]]:
; CHECK-NEXT:    movq $0, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    movb $128, %fs:__rsb_depth@TPOFF+7
; CHECK:         cmpq $.Lslh_ret_addr[[A]], %{{[a-z]+}}
; CHECK:         callq printf@PLT
; CHECK-NEXT:  .Lslh_ret_addr[[B:[0-9]+]]:
; CHECK-NEXT:    movq $0, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    movb $128, %fs:__rsb_depth@TPOFF+7
; CHECK:         cmpq $.Lslh_ret_addr[[B]], %{{[a-z]+}}
; CHECK-NOT:     callq __rsb_reset_depth
; CHECK:       .Lfunc_end0:
; PIC-LABEL: hardened:
; PIC:           callq *%{{[a-z0-9]+}}
; PIC-NEXT:    .Lslh_ret_addr{{[0-9]+}}:
; PIC-NEXT:      movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      movq $0, %fs:(%r11)
; PIC-NEXT:      movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      movb $128, %fs:7(%r11)
  %f = load ptr, ptr @fp
  %r = call i32 %f(i32 %x)
  %p = call i32 (ptr, ...) @printf(ptr @.str, i32 %r)
  ret i32 %p
}

define i32 @plain(i32 %x) {
; CHECK-LABEL: plain:
; CHECK:         movq (%rax), %r11
; CHECK-NEXT:    callq __rsb_icall_r11
; CHECK:       .Lfunc_end1:
  %f = load ptr, ptr @fp
  %r = call i32 %f(i32 %x)
  ret i32 %r
}
