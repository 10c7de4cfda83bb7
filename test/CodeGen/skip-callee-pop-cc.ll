; Conventions whose callee pops its arguments (`retq $n`: tailcc,
; swifttailcc, fastcc under -tailcallopt) or that may use %r11 differently
; (preserve_none) cannot return through the thunk: such functions are
; skipped with a remark, keep their returns, and calls to them stay plain,
; each followed by a credit reset in the instrumented caller.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s --check-prefixes=CHECK,FAST < %t.s \
; RUN:   --implicit-check-not=__rsb_entry.tcc --implicit-check-not=__rsb_entry.stcc \
; RUN:   --implicit-check-not=__rsb_entry.pnone
;; fastcc is fine unless -tailcallopt makes it callee-pop.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -tailcallopt \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.tco.s 2>%t.tco.remarks
; RUN: FileCheck %s --check-prefixes=REMARK,REMARK-TCO < %t.tco.remarks
; RUN: FileCheck %s --check-prefixes=CHECK,FAST-TCO < %t.tco.s \
; RUN:   --implicit-check-not=__rsb_entry.tcc --implicit-check-not=__rsb_entry.stcc \
; RUN:   --implicit-check-not=__rsb_entry.pnone --implicit-check-not=__rsb_entry.fcc

; REMARK-DAG: remark: {{.*}}'tcc' not instrumented: calling convention may pop its arguments or use %r11
; REMARK-DAG: remark: {{.*}}'stcc' not instrumented: calling convention may pop its arguments or use %r11
; REMARK-DAG: remark: {{.*}}'pnone' not instrumented: calling convention may pop its arguments or use %r11
; REMARK-TCO-DAG: remark: {{.*}}'fcc' not instrumented: calling convention may pop its arguments or use %r11

; CHECK-LABEL: {{^}}tcc:
; CHECK-NOT:     __rsb_return_thunk
; CHECK:         retq ${{[1-9][0-9]*}}
; CHECK-LABEL: {{^}}stcc:
; CHECK-NOT:     __rsb_return_thunk
; CHECK:         retq ${{[1-9][0-9]*}}
; CHECK-LABEL: {{^}}pnone:
; CHECK-NOT:     __rsb_return_thunk
; CHECK:         retq
; FAST-LABEL:    __rsb_entry.fcc:
; FAST:          {{^}}fcc:
; FAST:            jmp __rsb_return_thunk
; FAST-TCO-LABEL: {{^}}fcc:
; FAST-TCO:        retq ${{[1-9][0-9]*}}
; CHECK-LABEL: {{^}}caller:
; The reset follows the callee-pop's CFA adjustment.
; CHECK:         callq tcc@PLT{{$}}
; CHECK-NEXT:    .cfi_adjust_cfa_offset -24
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq stcc@PLT{{$}}
; CHECK-NEXT:    .cfi_adjust_cfa_offset -24
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq pnone@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; FAST:          callq __rsb_entry.fcc@PLT{{$}}
; FAST-NOT:      __rsb_reset_depth
; FAST-TCO:      callq fcc@PLT{{$}}
; FAST-TCO-NEXT: .cfi_adjust_cfa_offset
; FAST-TCO-NEXT: callq __rsb_reset_depth{{$}}
; CHECK:         jmp __rsb_return_thunk

define tailcc i64 @tcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define swifttailcc i64 @stcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define preserve_nonecc i64 @pnone(i64 %a) noinline {
  ret i64 %a
}

define fastcc i64 @fcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define i64 @caller() {
  %a = call tailcc i64 @tcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)
  %b = call swifttailcc i64 @stcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)
  %c = call preserve_nonecc i64 @pnone(i64 %a)
  %d = call fastcc i64 @fcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 %b)
  %s1 = add i64 %c, %d
  ret i64 %s1
}
