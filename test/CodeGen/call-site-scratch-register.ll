; The call-site design counts a call right before it; in the initial-exec
; form that takes a register for the counter's offset, which must not carry
; an argument: %r11 where the convention leaves it free, %r10 where it passes
; an argument in %r11 (preserve_none's 11th), and an error where both carry
; one.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -x86-rsb-stuff-variant=call-site %s -o - | FileCheck %s

define internal preserve_nonecc i64 @h11(i64 %a1, i64 %a2, i64 %a3, i64 %a4, i64 %a5, i64 %a6, i64 %a7, i64 %a8, i64 %a9, i64 %a10, i64 %a11) noinline {
  call void asm sideeffect "", ""()
  %s = add i64 %a1, %a11
  ret i64 %s
}

define internal i64 @c3(i64 %a, i64 %b, i64 %c) noinline {
  call void asm sideeffect "", ""()
  %s = add i64 %a, %c
  ret i64 %s
}

define i64 @call_preserve_none(ptr %v) {
; CHECK-LABEL: call_preserve_none:
; CHECK:         movq __rsb_depth@GOTTPOFF(%rip), %r10
; CHECK-NEXT:    sarq $5, %fs:(%r10)
; CHECK-NEXT:    callq h11
  %a = load volatile i64, ptr %v
  %r = call preserve_nonecc i64 @h11(i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a, i64 %a)
  ret i64 %r
}

define i64 @call_c(ptr %v) {
; CHECK-LABEL: call_c:
; CHECK:         movq __rsb_depth@GOTTPOFF(%rip), %r11
; CHECK-NEXT:    sarq $5, %fs:(%r11)
; CHECK-NEXT:    callq c3
  %a = load volatile i64, ptr %v
  %r = call i64 @c3(i64 %a, i64 %a, i64 %a)
  ret i64 %r
}
