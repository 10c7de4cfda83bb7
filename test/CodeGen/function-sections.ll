; With -ffunction-sections each function's prefix (filler, tail alias, entry
; symbol, accounting) is emitted into the function's own section .text.<f>,
; its filler counted from an anchor at the start of that section, so the
; linker's --gc-sections keeps or drops the two together, and a kept
; function's entry still ends exactly at it.

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: rm -rf %t && split-file %s %t
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -function-sections \
; RUN:   %t/main.ll -o - | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -function-sections \
; RUN:   -filetype=obj %t/main.ll -o %t/main.o
; RUN: llvm-objdump -t %t/main.o | FileCheck %s --check-prefix=SYMTAB
; RUN: llvm-objdump -dr %t/main.o \
; RUN:   | FileCheck %s --check-prefix=USED
; RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj %t/runtime.s -o %t/runtime.o
; RUN: ld.lld --gc-sections -e _start %t/main.o %t/runtime.o -o %t/a.out \
; RUN:   --print-gc-sections > %t/gc 2>&1
; RUN: FileCheck %s --check-prefix=GC < %t/gc
;; The negative checks run apart from the -DAG groups: FileCheck applies no
;; CHECK-NOT or --implicit-check-not from a group's first match to the next
;; plain CHECK (here, to the end).
; RUN: FileCheck %s --check-prefix=KEPT < %t/gc
; RUN: llvm-readelf -s %t/a.out > %t/a.syms
; RUN: FileCheck %s --check-prefix=LINKED < %t/a.syms
; RUN: FileCheck %s --check-prefix=GONE --implicit-check-not=unused < %t/a.syms
;; clang -ffunction-sections does the same.
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -ffunction-sections \
; RUN:   -Wno-override-module -c -x ir %t/main.ll -o %t/clang.o
; RUN: llvm-objdump -t %t/clang.o | FileCheck %s --check-prefix=SYMTAB

; ASM:      .section .text.used,"ax",@progbits
; ASM-NEXT: .type used,@function
; ASM-NEXT: .p2align 4
; ASM-NEXT: [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (22-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM:      __rsb_entry.used:
; ASM:      {{^}}used:
; ASM:      .section .text.unused,"ax",@progbits
; ASM-NEXT: .type unused,@function
; ASM-NEXT: .p2align 4
; ASM-NEXT: [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (22-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM:      __rsb_entry.unused:
; ASM:      {{^}}unused:
; ASM:      .section .text._start,"ax",@progbits
; ASM:      __rsb_entry._start:
; ASM:      .section .text.unused_ext,"ax",@progbits
; ASM:      __rsb_tail.unused_ext:
; ASM:      __rsb_entry.unused_ext:

; SYMTAB-DAG: 0000000000000010 l F .text.used {{0+}}[[#%x,]] used{{$}}
; SYMTAB-DAG: 0000000000000006 l F .text.used 000000000000000a __rsb_entry.used{{$}}
; SYMTAB-DAG: 0000000000000010 l F .text.unused {{0+}}[[#%x,]] unused{{$}}
; SYMTAB-DAG: 0000000000000006 l F .text.unused 000000000000000a __rsb_entry.unused{{$}}
; SYMTAB-DAG: 0000000000000010 g F .text._start {{0+}}[[#%x,]] _start{{$}}
; SYMTAB-DAG: 0000000000000006 g F .text._start 000000000000000a __rsb_entry._start{{$}}
; SYMTAB-DAG: 0000000000000010 g F .text.unused_ext {{0+}}[[#%x,]] unused_ext{{$}}
; SYMTAB-DAG: 0000000000000006 g F .text.unused_ext 000000000000000a __rsb_entry.unused_ext{{$}}
; SYMTAB-DAG: 0000000000000004 g F .text.unused_ext 0000000000000002 __rsb_tail.unused_ext{{$}}

; USED-LABEL: Disassembly of section .text.used:
; USED-EMPTY:
; USED-NEXT: 0000000000000000 <.text.used>:
; USED-COUNT-6: int3
; USED-EMPTY:
; USED-NEXT: 0000000000000006 <__rsb_entry.used>:
; USED-NEXT:   6: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; USED-NEXT:      000000000000000b: R_X86_64_TPOFF32 __rsb_depth
; USED-EMPTY:
; USED-NEXT: 0000000000000010 <used>:

; GC-DAG: removing unused section {{.*}}main.o:(.text.unused)
; GC-DAG: removing unused section {{.*}}main.o:(.text.unused_ext)
; KEPT-NOT: removing unused section {{.*}}main.o:(.text.used)
; KEPT-NOT: removing unused section {{.*}}main.o:(.text._start)

; LINKED-DAG: [[#%x,UADDR:]] [[#]] FUNC LOCAL DEFAULT [[#]] used{{$}}
; LINKED-DAG: [[#%.16x,UADDR-10]] 10 FUNC LOCAL DEFAULT [[#]] __rsb_entry.used{{$}}
; LINKED-DAG: [[#%x,START:]] [[#]] FUNC GLOBAL DEFAULT [[#]] _start{{$}}
; LINKED-DAG: [[#%.16x,START-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry._start{{$}}
; LINKED-DAG: [[#%.16x,START-12]] 2 FUNC GLOBAL DEFAULT [[#]] __rsb_tail._start{{$}}

; GONE: Symbol table '.symtab' contains

;--- main.ll
define internal void @used() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define internal void @unused() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @_start() {
  call void @used()
  call void asm sideeffect "", ""()
  ret void
}

define void @unused_ext() {
  call void @unused()
  call void asm sideeffect "", ""()
  ret void
}

;--- runtime.s
## Minimal stand-ins for the runtime symbols the code refers to.
	.section .tbss,"awT",@nobits
	.globl __rsb_depth
	.p2align 3
__rsb_depth:
	.zero 8
	.text
	.globl __rsb_return_thunk
	.type __rsb_return_thunk,@function
__rsb_return_thunk:
	shlq $5, %fs:__rsb_depth@tpoff
	ret
