; The accounting prefix in its default (local-exec) form, in the alignment
; padding in front of f: int3 filler, as many as the assembler's layout
; leaves before the prefix's last byte would miss f's 16-byte boundary (an
; expression of the distance from a 16-byte aligned anchor, as the
; AsmPrinter's own `.p2align` is gone), the tail alias __rsb_tail.f: `jmp f`
; (2 bytes, over the accounting), then __rsb_entry.f: `sarq $5,
; %fs:__rsb_depth@tpoff` (10 bytes), ending exactly at f, which stays
; 16-byte aligned. One FDE covers both. g's prefix takes the 12 bytes after
; f's `ret`, where the plain build has alignment NOPs.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
;; The same bytes from the assembly: the fill's count is an expression that
;; the assembler evaluates after relaxation.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o %t.s
; RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj %t.s -o %t.s.o
; RUN: llvm-objdump -dr %t.s.o | FileCheck %s --check-prefix=OBJ
;; The same bytes through clang (-fno-pic: an executable's counter).
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-count-indirect=false \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -dr %t.clang.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.clang.o | FileCheck %s --check-prefix=SYM

; ASM-LABEL: .type f,@function
; ASM-NEXT:    .p2align 4
; ASM-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT:  [[FILL_F:.Ltmp[0-9]+]]:
; ASM-NEXT:    .zero (20-(([[FILL_F]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    .type __rsb_tail.f,@function
; ASM-NEXT:    .globl __rsb_tail.f
; ASM-NEXT:  __rsb_tail.f:
; ASM-NEXT:    .byte 235 # jmp f
; ASM-NEXT:    .byte 10
; ASM-NEXT:    .size __rsb_tail.f, 2
; ASM-NEXT:    .type __rsb_entry.f,@function
; ASM-NEXT:    .globl __rsb_entry.f
; ASM-NEXT:  __rsb_entry.f:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc
; ASM-NEXT:    .size __rsb_entry.f, f-__rsb_entry.f
; ASM:       {{^}}f:
; ASM-NOT:     {{^[[:space:]]+retq}}
; ASM:         je __rsb_refill_return
; ASM-LABEL: .type g,@function
; ASM-NEXT:  [[FILL_G:.Ltmp[0-9]+]]:
; ASM-NEXT:    .zero (20-(([[FILL_G]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    .type __rsb_tail.g,@function
; ASM-NEXT:    .globl __rsb_tail.g
; ASM-NEXT:  __rsb_tail.g:
; ASM-NEXT:    .byte 235 # jmp g
; ASM-NEXT:    .byte 10
; ASM-NEXT:    .size __rsb_tail.g, 2
; ASM-NEXT:    .type __rsb_entry.g,@function
; ASM-NEXT:    .globl __rsb_entry.g
; ASM-NEXT:  __rsb_entry.g:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc
; ASM-NEXT:    .size __rsb_entry.g, g-__rsb_entry.g
; ASM:       {{^}}g:

; OBJ-LABEL: 0000000000000000 <.text>:
; OBJ-NEXT:         0: cc int3
; OBJ-NEXT:         1: cc int3
; OBJ-NEXT:         2: cc int3
; OBJ-NEXT:         3: cc int3
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000004 <__rsb_tail.f>:
; OBJ-NEXT:         4: eb 0a jmp 0x10 <f>
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000006 <__rsb_entry.f>:
; OBJ-NEXT:         6: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:            000000000000000b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000010 <f>:
; OBJ-NEXT:        10: 8d 47 01 leal 0x1(%rdi), %eax
;; No filler before g: its prefix starts right after f's `ret`.
; OBJ:             23: c3 retq
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000024 <__rsb_tail.g>:
; OBJ-NEXT:        24: eb 0a jmp 0x30 <g>
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000026 <__rsb_entry.g>:
; OBJ-NEXT:        26: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:            000000000000002b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000030 <g>:

; SYM-DAG: 0000000000000010 {{[0-9]+}} FUNC    GLOBAL DEFAULT [[#]] f{{$}}
; SYM-DAG: 0000000000000006       10 FUNC    GLOBAL DEFAULT [[#]] __rsb_entry.f{{$}}
; SYM-DAG: 0000000000000004        2 FUNC    GLOBAL DEFAULT [[#]] __rsb_tail.f{{$}}
; SYM-DAG: 0000000000000030 {{[0-9]+}} FUNC    GLOBAL DEFAULT [[#]] g{{$}}
; SYM-DAG: 0000000000000026       10 FUNC    GLOBAL DEFAULT [[#]] __rsb_entry.g{{$}}
; SYM-DAG: 0000000000000024        2 FUNC    GLOBAL DEFAULT [[#]] __rsb_tail.g{{$}}
; SYM-DAG: 0000000000000000        0 TLS     GLOBAL DEFAULT   UND __rsb_depth{{$}}

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @g(i32 %x) {
  %r = mul i32 %x, 7
  ret i32 %r
}
