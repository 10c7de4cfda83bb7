; Conventions whose callee pops its arguments (`retq $n`: tailcc,
; swifttailcc, fastcc under -tailcallopt) cannot return through the thunk,
; whose `ret` pops nothing. A function defined with one is an error naming
; it and the way out (RSB_NOSTUFF or the skip list), never a silently
; uninstrumented function; left out on purpose it is skipped with a remark,
; and calls to it stay plain, each followed by a credit reset.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -tailcallopt %s \
; RUN:   -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefixes=ERR,ERR-TCO --implicit-check-not=error:
; RUN: not %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic \
; RUN:   -Wno-override-module -c -x ir %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
;; fastcc is fine without -tailcallopt; skipped on purpose, all compile.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-skip=tcc,stcc -pass-remarks-missed=x86-rsb-stuff %s \
; RUN:   -o %t.s 2>&1 | FileCheck %s --check-prefix=SKIP
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.tcc \
; RUN:   --implicit-check-not=__rsb_entry.stcc

;; In the module's order, as the code generator reaches the functions: with
;; -DAG, FileCheck would not apply --implicit-check-not=error: between or
;; after the matched errors (where an error for fcc without -tailcallopt
;; would be).
; ERR:         error: {{.*}}x86-rsb-stuff: 'tcc' cannot be instrumented: its calling convention pops its arguments on return (`ret $n`), which the return thunk cannot do; leave it out with RSB_NOSTUFF (rsb_stuff.h) or -x86-rsb-stuff-skip=tcc
; ERR:         error: {{.*}}x86-rsb-stuff: 'stcc' cannot be instrumented: its calling convention pops its arguments on return
; ERR-TCO:     error: {{.*}}x86-rsb-stuff: 'fcc' cannot be instrumented: its calling convention pops its arguments on return

; SKIP-DAG: remark: {{.*}}'tcc' not instrumented: in the skip list
; SKIP-DAG: remark: {{.*}}'stcc' not instrumented: in the skip list

; CHECK-LABEL: {{^}}tcc:
; CHECK:         retq ${{[1-9][0-9]*}}
; CHECK-LABEL: {{^}}stcc:
; CHECK:         retq ${{[1-9][0-9]*}}
; CHECK-LABEL: __rsb_entry.fcc:
; CHECK:       {{^}}fcc:
; CHECK:         je __rsb_refill_return
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq tcc@PLT{{$}}
; CHECK-NEXT:    .cfi_adjust_cfa_offset -24
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq stcc@PLT{{$}}
; CHECK-NEXT:    .cfi_adjust_cfa_offset -24
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; fcc is instrumented but preemptible (reached by name, where another
; object's fallback frame may answer) and passes stack arguments: plain,
; with a reset after (call-stack-arguments.ll).
; CHECK:         callq fcc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return

define tailcc i64 @tcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define swifttailcc i64 @stcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define fastcc i64 @fcc(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h) noinline {
  %r = add i64 %g, %h
  ret i64 %r
}

define i64 @caller() uwtable {
  %a = call tailcc i64 @tcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)
  %b = call swifttailcc i64 @stcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 8)
  %d = call fastcc i64 @fcc(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7, i64 %b)
  %s = add i64 %a, %d
  call void asm sideeffect "", ""()
  ret i64 %s
}
