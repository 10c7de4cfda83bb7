; Pins the emission order the plugin relies on. The prefix is emitted from
; the target streamer's emitLabel() hook, which MCStreamer::emitLabel() calls
; before it prints (asm) or places (object) the label. So the prefix must
; come after the AsmPrinter's linkage and `.type f,@function`, and
; immediately before `f:`; in the object, the accounting must end at f's
; address. The AsmPrinter emits no `.p2align` of its own (the pass sets the
; function's alignment to 1): the prefix starts with the streamer's anchor,
; aligned once per section, and the int3 fill that the assembler computes
; from it so that the prefix ends aligned. If LLVM ever calls
; the hook after placing the label, or emits the function header in another
; order, this test fails: the prefix would then land inside f (executed on
; every entry) or away from the alignment.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
;; The assembly output, assembled, gives the same symbols.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o %t.s
; RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj %t.s -o %t.mc.o
; RUN: llvm-readelf -s %t.mc.o | FileCheck %s --check-prefix=SYM

; ASM:      .text
; ASM-NEXT: .globl f
; ASM-NEXT: .type f,@function
; ASM-NEXT: .p2align 4
; ASM-NEXT: [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (20-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT: .cfi_startproc
; ASM-NEXT: .type __rsb_tail.f,@function
; ASM-NEXT: .globl __rsb_tail.f
; ASM-NEXT: __rsb_tail.f:
; ASM-NEXT: .byte 235 # jmp f
; ASM-NEXT: .byte 10
; ASM-NEXT: .size __rsb_tail.f, 2
; ASM-NEXT: .type __rsb_entry.f,@function
; ASM-NEXT: .globl __rsb_entry.f
; ASM-NEXT: __rsb_entry.f:
; ASM-NEXT: sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT: .cfi_endproc
; ASM-NEXT: .size __rsb_entry.f, f-__rsb_entry.f
; ASM-NEXT: f:
; ASM-NEXT: .cfi_startproc
; ASM:      leal 1(%rdi), %eax
; ASM-NEXT: shlq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT: je __rsb_refill_return
; ASM-NEXT: retq
; ASM-NEXT: .Lfunc_end0:
; ASM-NEXT: .size f, .Lfunc_end0-f
; ASM-NEXT: .cfi_endproc

; OBJ-LABEL: Disassembly of section .text:
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000000 <.text>:
; OBJ-NEXT:         0: cc int3
; OBJ-NEXT:         1: cc int3
; OBJ-NEXT:         2: cc int3
; OBJ-NEXT:         3: cc int3
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000004 <__rsb_tail.f>:
; OBJ-NEXT:         4: eb 0a jmp 0x10 <f>
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000006 <__rsb_entry.f>:
; OBJ-NEXT:         6: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:            000000000000000b: R_X86_64_TPOFF32 __rsb_depth
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000010 <f>:
; OBJ-NEXT:        10: 8d 47 01 leal 0x1(%rdi), %eax
; OBJ-NEXT:        13: 64 48 c1 24 25 00 00 00 00 05 shlq $0x5, %fs:0x0
; OBJ-NEXT:            0000000000000018: R_X86_64_TPOFF32 __rsb_depth
; OBJ-NEXT:        1d: 0f 84 00 00 00 00 je
; OBJ-NEXT:            000000000000001f: R_X86_64_PLT32 __rsb_refill_return-0x4
; OBJ-NEXT:        23: c3 retq

; SYM-DAG: 0000000000000010 20 FUNC GLOBAL DEFAULT 2 f{{$}}
; SYM-DAG: 0000000000000006 10 FUNC GLOBAL DEFAULT 2 __rsb_entry.f{{$}}
; SYM-DAG: 0000000000000004 2 FUNC GLOBAL DEFAULT 2 __rsb_tail.f{{$}}

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}
