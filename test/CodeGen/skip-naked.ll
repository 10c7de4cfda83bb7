; A naked function has no frame and its own hand-written returns: it gets no
; prefix, its `ret` stays, a missed remark says why, and calls to it are not
; redirected (they would reach no entry). Its calls and returns are invisible
; to the counter, so the instrumented caller clears the credit right after a
; call to it and right before a tail call to it, after accounting the
; plain `ret` that ends the tail call with __rsb_tail_account.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.naked_fn \
; RUN:   --implicit-check-not=__rsb_tail.naked_fn
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks
; RUN: FileCheck %s < %t.clang.s --implicit-check-not=__rsb_entry.naked_fn \
; RUN:   --implicit-check-not=__rsb_tail.naked_fn

; REMARK: remark: {{.*}}'naked_fn' not instrumented: naked function
; REMARK-NOT: 'caller' not instrumented

; CHECK:       .type naked_fn,@function
; CHECK-NEXT:  naked_fn:
; CHECK-NOT:     {{__rsb_return_thunk|__rsb_refill_return|__rsb_depth}}
; CHECK:         retq
; CHECK:       .Lfunc_end0:
; CHECK-LABEL: {{^}}caller:
; CHECK-NOT:     __rsb_tail_account
; CHECK:         callq naked_fn@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq naked_fn@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
; CHECK-NEXT:  .Lfunc_end1:

; SYM-NOT: __rsb_entry.naked_fn
; SYM:     __rsb_entry.caller
; SYM-NOT: __rsb_entry.naked_fn

define void @naked_fn() naked noinline {
  call void asm sideeffect "movl $$1, %eax\0A\09retq", ""()
  unreachable
}

define void @caller() {
  call void @naked_fn()
  tail call void @naked_fn()
  ret void
}
