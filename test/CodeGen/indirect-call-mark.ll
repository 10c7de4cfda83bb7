; An indirect call in an executable is counted when its target carries the
; mark of an accounting entry: the target goes into %r11 once, the check
; reads the ten bytes before it (only when one of the target's bits 4-9 is
; set: never in the first 16 bytes of a page, never at the vsyscall page's
; entries), then either `sarq` and the call, or the call
; and the reset. A call that passes an argument in %r10 (nest), code for
; shared objects (initial-exec counter, no fixed bytes) and functions
; optimised for size (the check takes about 50 bytes) keep the reset.
; This is the check in place; by default the runtime's copy makes the call
; where it can (indirect-call-shared-call.ll), so the first RUN turns that
; off.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -asm-verbose=false -x86-rsb-stuff-shared-indirect-call=never \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=PIC \
; RUN:   --implicit-check-not=__rsb_prefix_mark
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - | FileCheck %s \
; RUN:   --check-prefix=OFF --implicit-check-not=__rsb_prefix_mark

@table = global [2 x ptr] zeroinitializer

; CHECK-LABEL: {{^}}by_register:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    testl $1008, %r11d
; CHECK-NEXT:    je [[PLAIN:.LBB0_[0-9]+]]
; CHECK-NEXT:    movq -8(%r11), %r10
; CHECK-NEXT:    cmpq __rsb_prefix_mark(%rip), %r10
; CHECK-NEXT:    jne [[PLAIN]]
; CHECK-NEXT:    cmpw $18532, -10(%r11)
; CHECK-NEXT:    je [[COUNTED:.LBB0_[0-9]+]]
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmp [[DONE:.LBB0_[0-9]+]]
; CHECK-NEXT:  [[COUNTED]]:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:  [[DONE]]:
; CHECK-NEXT:    incq %rax
; PIC-LABEL:   {{^}}by_register:
; PIC:           callq *%rax
; PIC-NEXT:      callq __rsb_reset_depth
; OFF-LABEL:   {{^}}by_register:
; OFF:           callq *%rax
; OFF-NEXT:      callq __rsb_reset_depth
define i64 @by_register(ptr %f, i64 %x) {
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

; The pointer is loaded once, into %r11: the call does not read it again.
; CHECK-LABEL: {{^}}through_memory:
; CHECK:         movq (%rcx,%rax,8), %r11
; CHECK-NEXT:    testl $1008, %r11d
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
define i64 @through_memory(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @table, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

; CHECK-LABEL: {{^}}nest:
; CHECK:         movq %rsi, %r10
; CHECK-NEXT:    callq *%rdi
; CHECK-NEXT:    callq __rsb_reset_depth
define i64 @nest(ptr %f, ptr %chain) {
  %r = call i64 %f(ptr nest %chain)
  %s = add i64 %r, 1
  ret i64 %s
}

; CHECK-LABEL: {{^}}small:
; CHECK-NOT:     __rsb_prefix_mark
; CHECK:         callq *%rax
; CHECK-NEXT:    callq __rsb_reset_depth
define i64 @small(ptr %f, i64 %x) optsize {
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

declare i32 @__gxx_personality_v0(...)
declare void @cleanup()

; Both calls lie between the invoke's EH labels.
; CHECK-LABEL: {{^}}invoked:
; CHECK:       .Ltmp{{[0-9]+}}:
; CHECK-NEXT:    movq %rdi, %r11
; CHECK:         callq *%r11
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *%r11
; CHECK-NEXT:  .LBB4_{{[0-9]+}}:
; CHECK-NEXT:  .Ltmp{{[0-9]+}}:
define void @invoked(ptr %f) personality ptr @__gxx_personality_v0 {
  invoke void %f() to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } cleanup
  call void @cleanup()
  resume { ptr, i32 } %l
}
