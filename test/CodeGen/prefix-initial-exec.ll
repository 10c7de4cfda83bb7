; The initial-exec form, for shared objects: the counter's TP offset comes
; from the GOT through %r11 (scratch at every entry), 12 bytes, so the filler
; before the first function shrinks to two int3. Chosen by -x86-rsb-stuff-tls=auto for PIC code that
; is not a PIE (this module has no "PIE Level" flag), or explicitly.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.pic.o
; RUN: llvm-objdump -dr %t.pic.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.pic.o | FileCheck %s --check-prefix=SYM
;; Explicit initial-exec, even for a non-PIC executable.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-tls=initial-exec -filetype=obj %s -o %t.ie.o
; RUN: llvm-objdump -dr %t.ie.o | FileCheck %s --check-prefix=OBJ
;; Explicit local-exec wins over PIC.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -x86-rsb-stuff-tls=local-exec %s -o - \
; RUN:   | FileCheck %s --check-prefix=LE
;; clang -fPIC on the same IR.
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fPIC -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -dr %t.clang.o | FileCheck %s --check-prefix=OBJ

; ASM-LABEL: .type f,@function
; ASM-NEXT:    .p2align 4
; ASM-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT:    .zero (18-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    .type __rsb_tail.f,@function
; ASM-NEXT:    .globl __rsb_tail.f
; ASM-NEXT:  __rsb_tail.f:
; ASM-NEXT:    .byte 235 # jmp f
; ASM-NEXT:    .byte 12
; ASM-NEXT:    .size __rsb_tail.f, 2
; ASM-NEXT:    .type __rsb_entry.f,@function
; ASM-NEXT:    .globl __rsb_entry.f
; ASM-NEXT:  __rsb_entry.f:
; ASM-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; ASM-NEXT:    sarq $5, %fs:(%r11)
; ASM-NEXT:    .cfi_endproc
; ASM-NEXT:    .size __rsb_entry.f, f-__rsb_entry.f
; ASM-NOT:     __rsb_depth@TPOFF
; ASM:       {{^}}f:

; OBJ-LABEL: 0000000000000000 <.text>:
; OBJ-NEXT:         0: cc int3
; OBJ-NEXT:         1: cc int3
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000002 <__rsb_tail.f>:
; OBJ-NEXT:         2: eb 0c jmp 0x10 <f>
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000004 <__rsb_entry.f>:
; OBJ-NEXT:         4: 4c 8b 1d 00 00 00 00 movq (%rip), %r11
; OBJ-NEXT:            0000000000000007: R_X86_64_{{(REX_)?}}GOTTPOFF __rsb_depth-0x4{{$}}
; OBJ-NEXT:         b: 64 49 c1 3b 05 sarq $0x5, %fs:(%r11)
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000010 <f>:
; OBJ-NOT:  R_X86_64_TPOFF32
; OBJ:      <__rsb_entry.g>:
; OBJ-NEXT:        {{[0-9a-f]+}}: 4c 8b 1d 00 00 00 00 movq (%rip), %r11
; OBJ-NEXT:            {{[0-9a-f]+}}: R_X86_64_{{(REX_)?}}GOTTPOFF __rsb_depth-0x4{{$}}
; OBJ-NEXT:        {{[0-9a-f]+}}: 64 49 c1 3b 05 sarq $0x5, %fs:(%r11)
; OBJ-EMPTY:
; OBJ-NEXT: {{[0-9a-f]+}}0 <g>:
; OBJ-NOT:  R_X86_64_TPOFF32

; SYM-DAG: 0000000000000010 [[#]] FUNC GLOBAL DEFAULT [[#]] f{{$}}
; SYM-DAG: 0000000000000004 12 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.f{{$}}
; SYM-DAG: 0000000000000002 2 FUNC GLOBAL DEFAULT [[#]] __rsb_tail.f{{$}}
; SYM-DAG: 0000000000000000 0 TLS GLOBAL DEFAULT UND __rsb_depth{{$}}

; LE-LABEL: __rsb_entry.f:
; LE-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; LE-NOT:     GOTTPOFF

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @g(i32 %x) {
  %r = mul i32 %x, 7
  ret i32 %r
}
