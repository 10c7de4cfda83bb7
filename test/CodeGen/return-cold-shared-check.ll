; A return the block frequencies call cold (it runs less than once per
; -x86-rsb-stuff-cold-ratio entries of its function, 8 by default) takes
; no in-place check of its own: it jumps to the check of its function's
; hottest return, which starts a block of its own (a 2-byte `jmp` instead
; of 16 more bytes). The hot returns keep their checks. With
; -x86-rsb-stuff-cold-ratio=0, or a return that is not cold, every return
; keeps its own check.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-cold-ratio=0 %s -o - \
; RUN:   | FileCheck %s --check-prefix=NOCOLD
;; The statistics build lands on the `incq` that counts the return.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   %s -o - | FileCheck %s --check-prefix=STATS
;; The shared-object form lands on the %r11 load of its check.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=PIC

declare void @ext()
declare void @slow()

; CHECK-LABEL: {{^}}cold_return:
; CHECK:         callq __rsb_entry.ext
; CHECK:         popq %rbx
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:  [[SHARED:.LBB0_[0-9]+]]:
; CHECK-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return # TAILCALL
; CHECK-NEXT:    retq
; CHECK:         callq __rsb_entry.slow
; CHECK:         popq %rbx
; CHECK-NEXT:    .cfi_def_cfa_offset 8
; CHECK-NEXT:    jmp [[SHARED]]
; CHECK-NOT:     retq
; CHECK:       .Lfunc_end0:

; NOCOLD-LABEL: {{^}}cold_return:
; NOCOLD:         je __rsb_refill_return # TAILCALL
; NOCOLD-NEXT:    retq
; NOCOLD:         callq __rsb_entry.slow
; NOCOLD:         shlq $5, %fs:__rsb_depth@TPOFF
; NOCOLD-NEXT:    je __rsb_refill_return # TAILCALL
; NOCOLD-NEXT:    retq

; STATS-LABEL: {{^}}cold_return:
; STATS:       [[SHARED:.LBB0_[0-9]+]]:
; STATS-NEXT:    incq %fs:__rsb_stats@TPOFF+8
; STATS-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; STATS:         jmp [[SHARED]]

; PIC-LABEL: {{^}}cold_return:
; PIC:       [[SHARED:.LBB0_[0-9]+]]:
; PIC-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:    shlq $5, %fs:(%r11)
; PIC:         jmp [[SHARED]]
define i32 @cold_return(i32 %x) {
entry:
  call void @ext()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %cold, label %hot, !prof !0
hot:
  ret i32 %x
cold:
  call void @slow()
  ret i32 -1
}

; Two returns as likely as each other: each keeps its check.
; CHECK-LABEL: {{^}}even_returns:
; CHECK:         shlq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return # TAILCALL
; CHECK-NEXT:    retq
; CHECK:         shlq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return # TAILCALL
; CHECK-NEXT:    retq
; CHECK:       .Lfunc_end1:
define i32 @even_returns(i32 %x) {
entry:
  call void @ext()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  call void @slow()
  ret i32 -1
b:
  ret i32 %x
}

!0 = !{!"branch_weights", i32 1, i32 1000}
