; With -x86-rsb-stuff-cold-indirect-calls, an indirect call in a block
; that the static estimate calls cold (less than once per
; -x86-rsb-stuff-cold-ratio entries of its function) is not checked for the
; prefix mark: the check takes about 45 bytes, and the uncounted call with
; its reset, as in functions optimised for size, costs a refill only when
; it runs. A hot indirect call keeps the check. By default (the estimate is
; wrong too often: a refill per run of a call that is not cold) the cold
; call keeps its check too, as the hot one: both through the runtime's
; copy that also makes the call (indirect-call-shared-call.ll), or with
; that turned off, the hot one in place and the cold one through the copy
; that only checks; with the estimate off both keep it in place.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   -x86-rsb-stuff-cold-indirect-calls %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false %s \
; RUN:   -o - | FileCheck %s --check-prefix=DEFAULT
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   -x86-rsb-stuff-cold-indirect-calls -x86-rsb-stuff-cold-ratio=0 %s \
; RUN:   -o - | FileCheck %s --check-prefix=NOCOLD

; CHECK-LABEL: {{^}}calls:
; CHECK:         testl $1008, %r11d
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
; CHECK-NOT:     __rsb_prefix_mark
; CHECK:         callq *%{{[a-z0-9]+}}
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NOT:     __rsb_prefix_mark
; CHECK:       .Lfunc_end0:

; DEFAULT-LABEL: {{^}}calls:
; DEFAULT-COUNT-2: callq __rsb_icall_r11
; DEFAULT-NOT:     __rsb_prefix_mark
; DEFAULT:       .Lfunc_end0:

; NOCOLD-LABEL: {{^}}calls:
; NOCOLD-COUNT-2: cmpq __rsb_prefix_mark(%rip), %r10
; NOCOLD:       .Lfunc_end0:
define i64 @calls(ptr %hot, ptr %cold, i64 %x) {
entry:
  %r = call i64 %hot(i64 %x)
  %c = icmp eq i64 %r, 0
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %s = call i64 %cold(i64 %x)
  br label %done
done:
  %v = phi i64 [ %r, %entry ], [ %s, %rare ]
  ret i64 %v
}

; An indirect tail call in a cold block follows the same rule (until
; 2026-12-07 it was taken for a cold return, and jumped uncounted with a
; reset, wherever the function had another return to share a check with).
; CHECK-LABEL: {{^}}tail:
; CHECK-NOT:     __rsb_prefix_mark
; CHECK:         callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%{{[a-z0-9]+}}
; CHECK:       .Lfunc_end1:
; DEFAULT-LABEL: {{^}}tail:
; DEFAULT:         cmpq __rsb_prefix_mark(%rip), %r10
; DEFAULT:         cmpw $18532, -10(%r11)
; DEFAULT-NEXT:    jne
; DEFAULT-NEXT:    jmpq *%r11
; DEFAULT:       .Lfunc_end1:
define i64 @tail(ptr %f, i64 %x, i64 %y) {
entry:
  %c = icmp eq i64 %x, 0
  br i1 %c, label %rare, label %common, !prof !0
rare:
  %r = tail call i64 %f(i64 %y)
  ret i64 %r
common:
  %d = icmp eq i64 %y, 0
  br i1 %d, label %one, label %two
one:
  ret i64 1
two:
  ret i64 %y
}

!0 = !{!"branch_weights", i32 1, i32 1000}
