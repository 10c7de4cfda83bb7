; A checked indirect call calls the runtime's copy of the check, which
; also makes the call, wherever it may: `call __rsb_icall_r11` with the
; target in %r11, 5 bytes instead of the 54 of the check in place (20 of the
; copy that only checks). The copy jumps to a marked target after counting
; it (one instruction more than in place) and calls any other one from a
; frame of its own, 16 bytes below the site's, then resets. So a site
; keeps the other forms where that frame would be wrong: a function with
; any call that passes stack arguments (the callee would not find them),
; one that calls a function that returns twice (the frame would be gone),
; and calls through the retpoline; -x86-rsb-stuff-shared-mark-check
; decides between the check in place and the copy that only checks
; (`call __rsb_count_marked_r11; je`, cold blocks by default). Statistics
; builds keep the check in place; -x86-rsb-stuff-shared-indirect-call=cold
; keeps it in place in blocks the static estimate does not call cold, and
; =never leaves every site to -x86-rsb-stuff-shared-mark-check.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-shared-indirect-call=never %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF --implicit-check-not=__rsb_icall_r11
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-stats %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF --implicit-check-not=__rsb_icall_r11
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-shared-indirect-call=cold %s -o - \
; RUN:   | FileCheck %s --check-prefix=COLD

; CHECK-LABEL: {{^}}cold_call:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    callq __rsb_icall_r11
; CHECK-NEXT:    incq %rax
; CHECK-NOT:     callq *%r11
; CHECK-NOT:     __rsb_reset_depth
; CHECK-NOT:     sarq
; CHECK-LABEL: .Lfunc_end0:
; OFF-LABEL: {{^}}cold_call:
; OFF-NOT:       callq *%r11
; OFF:           callq *%r11
; COLD-LABEL: {{^}}cold_call:
; COLD:          callq __rsb_icall_r11
define i64 @cold_call(ptr %f, i1 %c, i64 %x) {
entry:
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  br label %done
done:
  %v = phi i64 [ %s, %rare ], [ 0, %entry ]
  ret i64 %v
}

; A hot call takes the copy's call too, and keeps its check in place with
; `cold`.
; CHECK-LABEL: {{^}}hot_call:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    callq __rsb_icall_r11
; CHECK-NEXT:    incq %rax
; CHECK-LABEL: .Lfunc_end1:
; COLD-LABEL: {{^}}hot_call:
; COLD:          testl $1008, %r11d
; COLD:          sarq $5, %fs:__rsb_depth@TPOFF
; COLD-NEXT:     callq *%r11
; COLD-LABEL: .Lfunc_end1:
define i64 @hot_call(ptr %f, i64 %x) {
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

; Seven integer arguments: the seventh goes on the stack.
; CHECK-LABEL: {{^}}cold_stack_call:
; CHECK:         callq __rsb_count_marked_r11
; CHECK-NEXT:    je
; CHECK-LABEL: .Lfunc_end2:
define i64 @cold_stack_call(ptr %f, i1 %c, i64 %x) {
entry:
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6)
  %s = add i64 %r, 1
  br label %done
done:
  %v = phi i64 [ %s, %rare ], [ 0, %entry ]
  ret i64 %v
}

; The cold call passes its argument in a register, but another call of the
; function passes one on the stack: the function's frame has an outgoing
; argument area, which is all the pass sees of it.
; CHECK-LABEL: {{^}}stack_args_elsewhere:
; CHECK:         callq many@PLT
; CHECK:         callq __rsb_count_marked_r11
; CHECK-NEXT:    je
; CHECK-LABEL: .Lfunc_end3:
declare i64 @many(i64, i64, i64, i64, i64, i64, i64)
define i64 @stack_args_elsewhere(ptr %f, i1 %c, i64 %x) {
entry:
  %m = call i64 @many(i64 %x, i64 1, i64 2, i64 3, i64 4, i64 5, i64 6)
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  br label %done
done:
  %v = phi i64 [ %s, %rare ], [ %m, %entry ]
  ret i64 %v
}

; A function that calls setjmp may see its cold call's frame gone when
; setjmp returns again.
; CHECK-LABEL: {{^}}calls_setjmp:
; CHECK:         callq setjmp@PLT
; CHECK:         callq __rsb_count_marked_r11
; CHECK-NEXT:    je
; CHECK-LABEL: .Lfunc_end4:
declare i32 @setjmp(ptr) returns_twice
define i64 @calls_setjmp(ptr %f, ptr %buf, i1 %c, i64 %x) {
entry:
  %j = call i32 @setjmp(ptr %buf)
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  br label %done
done:
  %v = phi i64 [ %s, %rare ], [ 0, %entry ]
  ret i64 %v
}

; Under -mretpoline the call goes through __llvm_retpoline_r11, which the
; copy's `call *%r11` would skip.
; CHECK-LABEL: {{^}}cold_retpoline:
; CHECK:         callq __rsb_count_marked_r11
; CHECK-NEXT:    je
; CHECK-NOT:     callq *%r11
; CHECK:         callq __llvm_retpoline_r11
; CHECK-LABEL: .Lfunc_end5:
define i64 @cold_retpoline(ptr %f, i1 %c, i64 %x) #0 {
entry:
  br i1 %c, label %rare, label %done, !prof !0
rare:
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  br label %done
done:
  %v = phi i64 [ %s, %rare ], [ 0, %entry ]
  ret i64 %v
}

attributes #0 = { "target-features"="+retpoline-indirect-calls" }
!0 = !{!"branch_weights", i32 1, i32 1000}
