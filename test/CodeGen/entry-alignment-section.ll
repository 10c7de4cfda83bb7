; A function with a section attribute and a small explicit alignment
; (__attribute__((section("..."), aligned(4)))) is aligned by the AsmPrinter
; to that alignment only (`.p2align 2`), not to the 16 bytes the prefix
; needs. The prefix streamer's int3 filler counts to 16 bytes from its
; anchor whatever came before, so f's entry is 16-byte aligned anyway and
; the accounting still ends exactly at f. Here `first` ends at 0x18: without
; the filler `second` would start at 0x24.

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t.o
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
;; The same through clang.
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
; RUN:   -mllvm -x86-rsb-stuff-count-indirect=false \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-readelf -s %t.clang.o | FileCheck %s --check-prefix=SYM
;; Without the plugin the AsmPrinter uses the small alignments.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF:      .p2align 2
; OFF-NEXT: .type second,@function
; OFF:      .p2align 1
; OFF-NEXT: .type third,@function

; ASM:      .type first,@function
; ASM-NEXT: .p2align 4
; ASM-NEXT: [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM:      .p2align 2
; ASM-NEXT: .type second,@function
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (20-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT: .type __rsb_tail.second,@function
; ASM:      .type __rsb_entry.second,@function
; ASM:      .p2align 1
; ASM-NEXT: .type third,@function
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (20-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT: .type __rsb_tail.third,@function
; ASM:      .type __rsb_entry.third,@function

;; Only the filler after first's jmp.
; OBJ-LABEL: Disassembly of section .text.mine:
; OBJ:       0000000000000010 <first>:
; OBJ-NEXT:    10: 8d 47 01 leal 0x1(%rdi), %eax
; OBJ-NEXT:    13: e9 00 00 00 00 jmp
; OBJ-NEXT:    18: cc int3
; OBJ-COUNT-11:    cc int3
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000024 <__rsb_tail.second>:
; OBJ-NEXT:    24: eb 0a jmp 0x30 <second>
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000026 <__rsb_entry.second>:
; OBJ-NEXT:    26: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000030 <second>:
; OBJ:         38: cc int3
; OBJ-COUNT-11:    cc int3
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000044 <__rsb_tail.third>:
; OBJ-NEXT:    44: eb 0a jmp 0x50 <third>
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000046 <__rsb_entry.third>:
; OBJ-NEXT:    46: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000050 <third>:

; SYM-DAG: 0000000000000010 [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
; SYM-DAG: 0000000000000006 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.first{{$}}
; SYM-DAG: 0000000000000030 [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
; SYM-DAG: 0000000000000026 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.second{{$}}
; SYM-DAG: 0000000000000050 [[#]] FUNC GLOBAL DEFAULT [[#]] third{{$}}
; SYM-DAG: 0000000000000046 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.third{{$}}

define i32 @first(i32 %x) nounwind section ".text.mine" {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @second(i32 %x) nounwind section ".text.mine" align 4 {
  %r = add i32 %x, 2
  ret i32 %r
}

define i32 @third(i32 %x) nounwind section ".text.mine" align 2 {
  %r = add i32 %x, 3
  ret i32 %r
}
