; An x86_intrcc interrupt handler returns with iretq, which the return thunk
; cannot replace: no prefix, iretq stays, a missed remark says why.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s < %t.s --implicit-check-not=__rsb_entry.isr \
; RUN:   --implicit-check-not=__rsb_tail.isr
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Rpass-missed=x86-rsb-stuff -S -x ir %s -o %t.clang.s 2>%t.clang.remarks
; RUN: FileCheck %s --check-prefix=REMARK < %t.clang.remarks
; RUN: FileCheck %s < %t.clang.s --implicit-check-not=__rsb_entry.isr

; REMARK: remark: {{.*}}'isr' not instrumented: interrupt handler (entered by the CPU, returns with iret)

; CHECK:       .type isr,@function
; CHECK-NEXT:  isr:
; CHECK-NOT:     {{__rsb_return_thunk|__rsb_refill_return}}
; CHECK:         iretq
; CHECK:       .Lfunc_end0:

; OBJ-LABEL: <isr>:
; OBJ-NOT:     int3
; OBJ:         48 cf iretq

%struct.frame = type { i64, i64, i64, i64, i64 }

define x86_intrcc void @isr(ptr byval(%struct.frame) %f) "target-features"="+general-regs-only" {
  ret void
}

;; The module still has instrumented code.
; CHECK-LABEL: {{^}}other:
; CHECK:         je __rsb_refill_return
define void @other() {
  ret void
}
