; An indirect call through a function pointer whose initialiser is a C
; library function of bounded depth (jansson's `do_malloc = malloc`) is
; capped, not reset, when its unmarked target is that very function: the
; check compares the target with the address in the function's cap record
; (the one the runtime checked before it armed the mask) and calls it
; capped when they are equal; any other unmarked target keeps the reset.
; A tail call gets the cap before its accounting, as a direct tail call to
; a capped function does. A pointer that starts out as an unbounded
; function (strtoul) or as no function keeps the reset alone (in the
; runtime's copy of the check that makes the call: indirect-call-shared-call.ll).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s
;; Without resets nothing is capped either.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-reset=false \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s --check-prefix=NORESET

declare void @free(ptr)
declare i64 @strtoul(ptr, ptr, i32)

@do_free = internal global ptr @free
@do_strtoul = internal global ptr @strtoul
@no_default = global ptr null

define void @set(ptr %f) {
  store ptr %f, ptr @do_free
  store ptr %f, ptr @do_strtoul
  store ptr %f, ptr @no_default
  ret void
}

define i32 @call_free(ptr %p) {
; CHECK-LABEL: call_free:
; CHECK:         movq do_free(%rip), %r11
; CHECK:         cmpw $18532, -10(%r11)
; CHECK-NEXT:    je [[COUNTED:\.LBB[0-9_]+]]
; CHECK-NEXT:  [[PLAIN:\.LBB[0-9_]+]]:
; CHECK-NEXT:    cmpq __rsb_cap.free+8(%rip), %r11
; CHECK-NEXT:    jne [[RESET:\.LBB[0-9_]+]]
; CHECK-NEXT:  # %bb
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:    movq __rsb_cap.free(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    jmp [[DONE:\.LBB[0-9_]+]]
; CHECK-NEXT:  [[RESET]]:
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmp [[DONE]]
; CHECK-NEXT:  [[COUNTED]]:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:  [[DONE]]:
; NORESET-LABEL: call_free:
; NORESET-NOT:   __rsb_cap
; NORESET:       .Lfunc_end
  %f = load ptr, ptr @do_free
  call void %f(ptr %p)
  ret i32 0
}

define void @tail_free(ptr %p) {
; CHECK-LABEL: tail_free:
; CHECK:         cmpw $18532, -10(%r11)
; CHECK-NEXT:    jne [[PLAIN:\.LBB[0-9_]+]]
; CHECK-NEXT:  # %bb
; CHECK-NEXT:    jmpq *%r11
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    cmpq __rsb_cap.free+8(%rip), %r11
; CHECK-NEXT:    jne [[RESET:\.LBB[0-9_]+]]
; CHECK-NEXT:  # %bb
; CHECK-NEXT:    movq __rsb_cap.free(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    jmpq *%r11
; CHECK-NEXT:  [[RESET]]:
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%r11
  %f = load ptr, ptr @do_free
  tail call void %f(ptr %p)
  ret void
}

define i64 @call_unbounded(ptr %s) {
; CHECK-LABEL: call_unbounded:
; CHECK-NOT:     __rsb_cap
; CHECK:         callq __rsb_icall_r11
; CHECK-NOT:     __rsb_cap
; CHECK:         .Lfunc_end
  %f = load ptr, ptr @do_strtoul
  %r = call i64 %f(ptr %s, ptr null, i32 10)
  %x = add i64 %r, 1
  ret i64 %x
}

define void @call_no_default(ptr %p) {
; CHECK-LABEL: call_no_default:
; CHECK-NOT:     __rsb_cap
; CHECK:         callq __rsb_icall_r11
; CHECK-NOT:     __rsb_cap
; CHECK:         .Lfunc_end
  %f = load ptr, ptr @no_default
  call void %f(ptr %p)
  ret void
}

; CHECK: __rsb_cap.free:
; CHECK-NEXT: .quad -9223372036854775808
; CHECK-NEXT: .quad free
; CHECK-NOT: __rsb_cap.strtoul:
