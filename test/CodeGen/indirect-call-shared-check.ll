; An indirect call in a block that the static estimate calls cold
; (-x86-rsb-stuff-cold-ratio, here from branch weights) keeps its mark check,
; but calls the runtime's shared copy of it, which also counts the call and
; sets ZF when the target carries the mark: 5 bytes and a `je` instead of
; the 34 of the check in place. The call is counted exactly as in place (no
; `sarq` at the site: the copy does it). Hot blocks keep the check in
; place, as do statistics builds; `always` shares every check, `never` none.
; This is the form for the calls that the runtime's copy cannot make itself
; (indirect-call-shared-call.ll), chosen here for all of them with
; -x86-rsb-stuff-shared-indirect-call=never.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   -x86-rsb-stuff-shared-mark-check=never %s -o - | FileCheck %s \
; RUN:   --check-prefix=NEVER --implicit-check-not=__rsb_count_marked_r11
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-stats %s -o - | FileCheck %s \
; RUN:   --check-prefix=NEVER --implicit-check-not=__rsb_count_marked_r11
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   -x86-rsb-stuff-shared-mark-check=always %s -o - | FileCheck %s \
; RUN:   --check-prefix=ALWAYS --implicit-check-not=__rsb_prefix_mark

; CHECK-LABEL: {{^}}cold_call:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    callq __rsb_count_marked_r11
; CHECK-NEXT:    je [[COUNTED:.LBB0_[0-9]+]]
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmp [[DONE:.LBB0_[0-9]+]]
; CHECK-NEXT:  [[COUNTED]]:
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:  [[DONE]]:
; CHECK-NOT:     sarq
; CHECK-LABEL: .Lfunc_end0:
; NEVER-LABEL: {{^}}cold_call:
; NEVER:         testl $1008, %r11d
; ALWAYS-LABEL: {{^}}cold_call:
; ALWAYS:        callq __rsb_count_marked_r11
define i64 @cold_call(ptr %f, i1 %c, i64 %x) {
entry:
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x)
  br label %done
done:
  %v = phi i64 [ %r, %rare ], [ 0, %entry ]
  ret i64 %v
}

; CHECK-LABEL: {{^}}hot_call:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    testl $1008, %r11d
; CHECK-NOT:     __rsb_count_marked_r11
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
; CHECK-LABEL: .Lfunc_end1:
; NEVER-LABEL: {{^}}hot_call:
; NEVER:         testl $1008, %r11d
; ALWAYS-LABEL: {{^}}hot_call:
; ALWAYS:        movq %rax, %r11
; ALWAYS-NEXT:   callq __rsb_count_marked_r11
; ALWAYS-NEXT:   je
define i64 @hot_call(ptr %f, i64 %x) {
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

!0 = !{!"branch_weights", i32 1, i32 1000}
