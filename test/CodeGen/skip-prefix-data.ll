; Prefix data and prologue data occupy the bytes around the entry that the
; accounting prefix needs (prefix data must end right at f): such functions
; are skipped with a remark, keep their `ret`, and calls to them stay plain
; (followed by a credit reset in the instrumented caller).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.with_prefix \
; RUN:   --implicit-check-not=__rsb_entry.with_prologue
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -d -s -j .text %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks

; REMARK-DAG: remark: {{.*}}'with_prefix' not instrumented: function has prefix or prologue data
; REMARK-DAG: remark: {{.*}}'with_prologue' not instrumented: function has prefix or prologue data

; CHECK-LABEL: .type with_prefix,@function
; CHECK-NEXT:    .long 3405691582
; CHECK-NEXT:  with_prefix:
; CHECK:         retq
; CHECK-LABEL: {{^}}with_prologue:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    .asciz "\353"
; CHECK:         retq
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq with_prefix@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    callq with_prologue@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}

;; The 4 data bytes sit immediately before with_prefix, which keeps its ret:
;; no int3, no sarq.
; OBJ-LABEL: Contents of section .text:
; OBJ-NEXT:   0000 bebafeca c3
; OBJ:       0000000000000004 <with_prefix>:
; OBJ-NEXT:         4: c3 retq
; OBJ:       0000000000000010 <with_prologue>:
; OBJ-NEXT:        10: eb 00 jmp
; OBJ-NEXT:        12: c3 retq

define void @with_prefix() noinline prefix i32 3405691582 {
  ret void
}

define void @with_prologue() noinline prologue [2 x i8] c"\EB\00" {
  ret void
}

define void @caller() {
  call void @with_prefix()
  call void @with_prologue()
  call void asm sideeffect "", ""()
  ret void
}
