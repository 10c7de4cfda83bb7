; Functions built with -mfunction-return=thunk-extern (the enum IR attribute
; fn_ret_thunk_extern) already return through the kernel-style
; __x86_return_thunk; the plugin leaves them alone: no prefix, a missed
; remark, their `jmp __x86_return_thunk` kept without tail accounting or
; reset, and calls to them not redirected (but followed by a credit reset in
; the instrumented caller: the counter does not see their calls).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.rte \
; RUN:   --implicit-check-not=__rsb_tail.rte
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks
; RUN: FileCheck %s < %t.clang.s --implicit-check-not=__rsb_entry.rte \
; RUN:   --implicit-check-not=__rsb_tail.rte

; REMARK: remark: {{.*}}'rte' not instrumented: returns already go through -mfunction-return=thunk-extern

; CHECK:       .type rte,@function
; CHECK-NEXT:  rte:
; CHECK-NOT:     __rsb_
; CHECK:         jmp __x86_return_thunk # TAILCALL
; CHECK:       .Lfunc_end0:
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq rte@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         jmp __rsb_return_thunk

define void @rte() noinline fn_ret_thunk_extern {
  call void asm sideeffect "", ""()
  ret void
}

define void @caller() {
  call void @rte()
  call void asm sideeffect "", ""()
  ret void
}
