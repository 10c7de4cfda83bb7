; Under -mretpoline an indirect call is `call __llvm_retpoline_r11` with its
; target in %r11: the mark check goes in front of it as in front of
; `call *%r11`, and the counted branch calls the retpoline too. So does a
; tail call: `jmp __llvm_retpoline_r11` right after the check, and after
; the accounting and the reset for any other target.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - | FileCheck %s \
; RUN:   --check-prefix=OFF --implicit-check-not=__rsb_prefix_mark

; CHECK-LABEL: {{^}}call_retpoline:
; CHECK:         movq %rdi, %r11
; CHECK:         testl $1008, %r11d
; CHECK-NEXT:    je [[PLAIN:.LBB0_[0-9]+]]
; CHECK-NEXT:    movq -8(%r11), %r10
; CHECK-NEXT:    cmpq __rsb_prefix_mark(%rip), %r10
; CHECK-NEXT:    jne [[PLAIN]]
; CHECK-NEXT:    cmpw $18532, -10(%r11)
; CHECK-NEXT:    je [[COUNTED:.LBB0_[0-9]+]]
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq __llvm_retpoline_r11
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmp [[DONE:.LBB0_[0-9]+]]
; CHECK-NEXT:  [[COUNTED]]:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq __llvm_retpoline_r11
; CHECK-NEXT:  [[DONE]]:
; CHECK-NEXT:    incq %rax
; OFF-LABEL:   {{^}}call_retpoline:
; OFF:           callq __llvm_retpoline_r11
; OFF-NEXT:      callq __rsb_reset_depth
define i64 @call_retpoline(ptr %f, i64 %x) #0 {
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

; CHECK-LABEL: {{^}}tail_retpoline:
; CHECK:         movq %rdi, %r11
; CHECK:         cmpq __rsb_prefix_mark(%rip), %r10
; CHECK:         cmpw $18532, -10(%r11)
; CHECK-NEXT:    jne [[PLAIN:.LBB[0-9]+_[0-9]+]]
; CHECK-NEXT:    jmp __llvm_retpoline_r11
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmp __llvm_retpoline_r11
; OFF-LABEL:   {{^}}tail_retpoline:
; OFF:           callq __rsb_tail_account
; OFF-NEXT:      callq __rsb_reset_depth
; OFF-NEXT:      jmp __llvm_retpoline_r11
define i64 @tail_retpoline(ptr %f, i64 %x) #0 {
  %r = tail call i64 %f(i64 %x)
  ret i64 %r
}

; The thunk itself keeps its plain `ret`: it is the retpoline.
; CHECK-LABEL: {{^}}__llvm_retpoline_r11:
; CHECK-NOT:     {{__rsb_return_thunk|__rsb_refill_return|__rsb_depth}}
; CHECK:         retq

attributes #0 = { "target-features"="+retpoline-indirect-calls,+retpoline-indirect-branches" }
