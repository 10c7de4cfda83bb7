; The prefix lies outside f's FDE, so it gets its own (.cfi_startproc /
; .cfi_endproc around the accounting): it starts at the tail alias
; __rsb_tail.f in front of __rsb_entry.f (at the entry of a local function)
; and ends at f, with the entry frame rule. A function that needs no unwind
; tables (nounwind without uwtable) gets no FDE for its prefix either.

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -filetype=obj %s -o %t.o
; RUN: llvm-dwarfdump --eh-frame %t.o | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -x86-rsb-stuff-stats \
; RUN:   -filetype=obj %s -o %t.stats.o
; RUN: llvm-dwarfdump --eh-frame %t.stats.o | FileCheck %s --check-prefix=STATS
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM

;; unwinds: tail alias 0x4, entry 0x6..0x10, f from 0x10. no_tables: no
;; FDE at all (its tail alias is at 0x24). tables: 0x44..0x50.
; CHECK:     FDE cie=00000000 pc=00000004...00000010
; CHECK:     0x4: CFA=RSP+8: RIP=[CFA-8]
; CHECK:     FDE cie=00000000 pc=00000010...{{[0-9a-f]+}}
; CHECK-NOT: pc=00000024
; CHECK-NOT: pc=00000030
; CHECK:     FDE cie=00000000 pc=00000044...00000050
; CHECK:     FDE cie=00000000 pc=00000050...{{[0-9a-f]+}}
; CHECK-NOT: FDE

; STATS: FDE cie=00000000 pc=0000000b...00000020
; STATS: FDE cie=00000000 pc=00000020...

; ASM-LABEL: __rsb_tail.unwinds:
; ASM-NEXT:    .byte 235
; ASM-NEXT:    .byte 10
; ASM-NEXT:    .size __rsb_tail.unwinds, 2
; ASM-NEXT:    .type __rsb_entry.unwinds,@function
; ASM-NEXT:    .globl __rsb_entry.unwinds
; ASM-NEXT:  __rsb_entry.unwinds:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc
; ASM-LABEL: __rsb_entry.no_tables:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .size __rsb_entry.no_tables, no_tables-__rsb_entry.no_tables
; ASM-LABEL: __rsb_entry.tables:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc

declare void @ext()

define void @unwinds() {
  call void @ext()
  call void asm sideeffect "", ""()
  ret void
}

define void @no_tables() nounwind {
  call void @ext()
  call void asm sideeffect "", ""()
  ret void
}

define void @tables() nounwind uwtable {
  call void @ext()
  call void asm sideeffect "", ""()
  ret void
}
