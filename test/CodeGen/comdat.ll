; A linkonce_odr function in a COMDAT group (C++ inline functions,
; templates): its prefix, entry symbol and tail alias live in the function's
; group section, WEAK like the function, and the group is renamed
; `__rsb_entry.inl`. Instrumented copies share that group, so the linker
; keeps one of them; a copy from an object built without rsb-stuff keeps its
; group `inl` and stays in the link beside it, so `__rsb_entry.inl` is
; never left undefined (it was, and the call jumped to address 0, when both
; copies shared the group `inl` and the uninstrumented one came first).
; Callers reach it by name (`__rsb_entry.inl`, and `__rsb_tail.inl` for
; tail calls).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -t %t.o | FileCheck %s --check-prefix=SYMTAB
; RUN: llvm-readelf --section-groups %t.o | FileCheck %s --check-prefix=GROUP
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -t %t.clang.o | FileCheck %s --check-prefix=SYMTAB

; ASM:      .section .text.inl,"axG",@progbits,__rsb_entry.inl,comdat
; ASM-NEXT: .weak inl
; ASM-NEXT: .type inl,@function
; ASM-NEXT: .p2align 5
; ASM-NEXT: [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT: [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT: .zero (36-(([[FILL]]-[[ANCHOR]])&31))&31,204
; ASM:      .type __rsb_tail.inl,@function
; ASM-NEXT: .weak __rsb_tail.inl
; ASM-NEXT: __rsb_tail.inl:
; ASM:      .type __rsb_entry.inl,@function
; ASM-NEXT: .weak __rsb_entry.inl
; ASM-NEXT: __rsb_entry.inl:
; ASM:      .type __rsb_body.inl,@function
; ASM-NEXT: __rsb_body.inl:
; ASM-NEXT: inl:
; ASM:      .text
; ASM:      {{^}}user:
; ASM:        callq __rsb_entry.inl@PLT{{$}}
; ASM:      {{^}}tail_user:
; ASM:        jmp __rsb_tail.inl@PLT # TAILCALL

; SYMTAB-DAG: 0000000000000010  w F .text.inl [[#%.16x,]] inl{{$}}
; SYMTAB-DAG: 0000000000000006  w F .text.inl 000000000000000a __rsb_entry.inl{{$}}
; SYMTAB-DAG: 0000000000000004  w F .text.inl 0000000000000002 __rsb_tail.inl{{$}}
; SYMTAB-DAG: 0000000000000010 l F .text.inl 0000000000000000 __rsb_body.inl{{$}}

; GROUP:      COMDAT group section [{{ *}}[[#]]] `.group' [__rsb_entry.inl] contains 2 sections:
; GROUP-NEXT:    [Index] Name
; GROUP-NEXT:    [{{ *}}[[#]]] .text.inl
; GROUP-NEXT:    [{{ *}}[[#]]] .rela.text.inl

; OBJ-LABEL: <user>:
; OBJ:         R_X86_64_PLT32 __rsb_entry.inl-0x4
; OBJ-LABEL: <tail_user>:
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail.inl-0x4
; OBJ-LABEL: Disassembly of section .text.inl:
; OBJ:       0000000000000006 <__rsb_entry.inl>:
; OBJ-NEXT:    6: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:       R_X86_64_TPOFF32 __rsb_depth
; OBJ-EMPTY:
; OBJ-NEXT:  0000000000000010 <inl>:

$inl = comdat any

define linkonce_odr i32 @inl(i32 %x) noinline comdat {
  %r = mul i32 %x, 13
  ret i32 %r
}

define i32 @user(i32 %x) {
  %r = call i32 @inl(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

define i32 @tail_user(i32 %x) {
  %r = tail call i32 @inl(i32 %x)
  ret i32 %r
}
