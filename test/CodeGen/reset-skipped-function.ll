; Credit resets belong to instrumented functions only. A skipped function
; (here by the skip list) keeps its calls to libc and through
; pointers, its landing pads and its tail calls exactly as they were: no
; `callq __rsb_reset_depth`, no tail accounting. Its direct calls to
; functions that may be instrumented are still redirected (a counted call is
; matched by the callee's return whoever the caller is).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-skip=skipped,skipped_tail \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.s
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -mllvm -x86-rsb-stuff-skip=skipped,skipped_tail -S -x ir %s -o - \
; RUN:   | FileCheck %s

; REMARK: remark: {{.*}}'skipped' not instrumented: in the skip list
; REMARK: remark: {{.*}}'skipped_tail' not instrumented: in the skip list

declare i32 @printf(ptr, ...)
declare i32 @puts(ptr)
declare void @ext()
declare void @handle(ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: {{^}}skipped:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq printf@PLT{{$}}
; CHECK-NEXT:    callq *%r{{[a-z0-9]+$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:       .Ltmp[[#]]:
; CHECK-NEXT:    callq __rsb_entry.ext@PLT{{$}}
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:       .LBB0_[[#]]: # %lpad
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    movq %rax, %rdi
; CHECK-NEXT:    callq __rsb_entry.handle@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         retq
; CHECK-NEXT:  .Lfunc_end0:
define void @skipped(ptr %fmt, ptr %fp) personality ptr @__gxx_personality_v0 {
entry:
  %p = call i32 (ptr, ...) @printf(ptr %fmt)
  call void %fp()
  invoke void @ext()
          to label %done unwind label %lpad
done:
  call void asm sideeffect "", ""()
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  call void @handle(ptr %exn)
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}skipped_tail:
; CHECK-NOT:     __rsb_reset_depth
; CHECK-NOT:     __rsb_tail_account
; CHECK:         jmp puts@PLT # TAILCALL
; CHECK-NEXT:  .Lfunc_end1:
define i32 @skipped_tail(ptr %s) {
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
}
