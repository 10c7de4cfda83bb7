; A function that calls llvm.eh.return.* (__builtin_eh_return, as in libgcc's
; unwinder) ends in EH_RETURN64, a `ret` to a computed address with a
; computed stack pointer that the return thunk cannot perform. Such functions
; are skipped, decided from the IR: a missed remark, no prefix, the eh_return
; `retq` kept, and calls to them not redirected but followed by a credit
; reset in the instrumented caller. It is not a hard error any more.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks \
; RUN:   --implicit-check-not=remark: --implicit-check-not=error:
; RUN: FileCheck %s --check-prefixes=COMMON,CHECK < %t.s \
; RUN:   --implicit-check-not=__rsb_entry.unwinder \
; RUN:   --implicit-check-not=__rsb_tail.unwinder
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks \
; RUN:   --implicit-check-not=remark: --implicit-check-not=error:
; RUN: FileCheck %s --check-prefixes=COMMON,CLANG < %t.clang.s \
; RUN:   --implicit-check-not=__rsb_entry.unwinder \
; RUN:   --implicit-check-not=__rsb_tail.unwinder

; REMARK: remark: {{.*}}'unwinder' not instrumented: returns through __builtin_eh_return

; COMMON:       .type unwinder,@function
; COMMON-NEXT:  unwinder:
; COMMON-NOT:     __rsb
; COMMON:         retq # eh_return, addr: %rcx
; COMMON-NEXT:  .Lfunc_end0:
; COMMON-LABEL: {{^}}caller:
; COMMON:         callq unwinder@PLT{{$}}
; CHECK-NEXT:     callq __rsb_reset_depth{{$}}
; CHECK:          jmp __rsb_return_thunk # TAILCALL
;; clang -O2 infers that unwinder, and so caller, never return: the call
;; ends caller, and a call that never returns needs no reset.
; CLANG-NEXT:   .Lfunc_end1:

; SYM-NOT: __rsb_entry.unwinder
; SYM:     __rsb_entry.caller
; SYM-NOT: __rsb_entry.unwinder

declare void @llvm.eh.return.i64(i64, ptr)

define void @unwinder(i64 %off, ptr %handler) noinline {
  call void @llvm.eh.return.i64(i64 %off, ptr %handler)
  unreachable
}

define void @caller(i64 %off, ptr %handler) {
  call void @unwinder(i64 %off, ptr %handler)
  call void asm sideeffect "", ""()
  ret void
}
