; An indirect tail call in an executable goes straight to a target that
; carries the mark of an accounting entry: that target returns through the
; thunk to our caller, like a direct tail call to an instrumented function,
; so nothing is accounted. The check falls into the jump; any other target
; gets the accounting and the reset of before. Internal functions get LLVM's
; fastcc, which on x86-64 is the C convention: checked the same. A jump that
; passes %r10 (nest), code for shared objects (no fixed bytes to compare) and
; -x86-rsb-stuff-count-indirect=false keep the old form.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=PIC \
; RUN:   --implicit-check-not=__rsb_prefix_mark
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - | FileCheck %s \
; RUN:   --check-prefix=PIC --implicit-check-not=__rsb_prefix_mark

@table = global [2 x ptr] zeroinitializer

; CHECK-LABEL: {{^}}tail_register:
; CHECK:         movq %rax, %r11
; CHECK-NEXT:    testl $1008, %r11d
; CHECK-NEXT:    je [[PLAIN:.LBB0_[0-9]+]]
; CHECK-NEXT:    movq -8(%r11), %r10
; CHECK-NEXT:    cmpq __rsb_prefix_mark(%rip), %r10
; CHECK-NEXT:    jne [[PLAIN]]
; CHECK-NEXT:    cmpw $18532, -10(%r11)
; CHECK-NEXT:    jne [[PLAIN]]
; CHECK-NEXT:    jmpq *%r11
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%r11
; PIC-LABEL:   {{^}}tail_register:
; PIC:           callq __rsb_tail_account
; PIC-NEXT:      callq __rsb_reset_depth
; PIC-NEXT:      jmpq *%rax
define i64 @tail_register(ptr %f, i64 %x) {
  %r = tail call i64 %f(i64 %x)
  ret i64 %r
}

; The pointer is loaded once, into %r11: the jump does not read it again.
; CHECK-LABEL: {{^}}tail_memory:
; CHECK:         movq (%rcx,%rax,8), %r11
; CHECK-NEXT:    testl $1008, %r11d
; CHECK:         cmpw $18532, -10(%r11)
; CHECK-NEXT:    jne [[PLAIN:.LBB1_[0-9]+]]
; CHECK-NEXT:    jmpq *%r11
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%r11
define i64 @tail_memory(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @table, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = tail call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}tail_fastcc:
; CHECK:         cmpw $18532, -10(%r11)
; CHECK-NEXT:    jne [[PLAIN:.LBB2_[0-9]+]]
; CHECK-NEXT:    jmpq *%r11
; CHECK-NEXT:  [[PLAIN]]:
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%r11
define internal fastcc i64 @tail_fastcc(ptr %f, i64 %x) {
  %r = tail call i64 %f(i64 %x)
  ret i64 %r
}

define i64 @use_fastcc(ptr %f) {
  %r = call fastcc i64 @tail_fastcc(ptr %f, i64 1)
  ret i64 %r
}

; CHECK-LABEL: {{^}}tail_nest:
; CHECK:         movq %rsi, %r10
; CHECK-NEXT:    callq __rsb_tail_account
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    jmpq *%rdi
define i64 @tail_nest(ptr %f, ptr %chain) {
  %r = tail call i64 %f(ptr nest %chain)
  ret i64 %r
}
