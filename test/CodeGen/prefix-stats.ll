; Statistics mode (-x86-rsb-stuff-stats): a 19-byte prefix whose accounting
; is `incq` of the thread's call count at offset 0 of __rsb_stats, then the
; usual sarq, which ends exactly at f (the mark that indirect call sites
; check, indirect-call-mark.ll); f stays 16-byte aligned.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false -x86-rsb-stuff-stats \
; RUN:   %s -o - | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false -x86-rsb-stuff-stats \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
;; The initial-exec form loads each symbol's offset into %r11.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false -x86-rsb-stuff-stats \
; RUN:   -relocation-model=pic -filetype=obj %s -o %t.pic.o
; RUN: llvm-objdump -dr %t.pic.o | FileCheck %s --check-prefix=PIC
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-count-indirect=false \
; RUN:   -mllvm -x86-rsb-stuff-stats -target x86_64-linux-gnu -O2 -fno-pic \
; RUN:   -Wno-override-module -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -dr %t.clang.o | FileCheck %s --check-prefix=OBJ

; ASM-LABEL: .type f,@function
; ASM-NEXT:    .p2align 4
; ASM-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; ASM-NEXT:    .zero (27-(([[FILL]]-[[ANCHOR]])&15))&15,204
; ASM-NEXT:    .cfi_startproc
; ASM-NEXT:    .type __rsb_tail.f,@function
; ASM-NEXT:    .globl __rsb_tail.f
; ASM-NEXT:  __rsb_tail.f:
; ASM-NEXT:    .byte 235 # jmp f
; ASM-NEXT:    .byte 19
; ASM-NEXT:    .size __rsb_tail.f, 2
; ASM-NEXT:    .type __rsb_entry.f,@function
; ASM-NEXT:    .globl __rsb_entry.f
; ASM-NEXT:  __rsb_entry.f:
; ASM-NEXT:    incq %fs:__rsb_stats@TPOFF
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc
; ASM-NEXT:    .size __rsb_entry.f, f-__rsb_entry.f
; ASM:       {{^}}f:

; OBJ-LABEL: 0000000000000000 <.text>:
; OBJ-NEXT:         0: cc int3
; OBJ-COUNT-9:         cc int3
; OBJ-NEXT:         a: cc int3
; OBJ-EMPTY:
; OBJ-NEXT: 000000000000000b <__rsb_tail.f>:
; OBJ-NEXT:         b: eb 13 jmp 0x20 <f>
; OBJ-EMPTY:
; OBJ-NEXT: 000000000000000d <__rsb_entry.f>:
; OBJ-NEXT:         d: 64 48 ff 04 25 00 00 00 00 incq %fs:0x0
; OBJ-NEXT:            0000000000000012: R_X86_64_TPOFF32 __rsb_stats{{$}}
; OBJ-NEXT:        16: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:            000000000000001b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000020 <f>:

; SYM-DAG: 0000000000000020 [[#]] FUNC GLOBAL DEFAULT [[#]] f{{$}}
; SYM-DAG: 000000000000000d 19 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.f{{$}}
; SYM-DAG: 0000000000000000 0 TLS GLOBAL DEFAULT UND __rsb_stats{{$}}

; PIC-LABEL: 0000000000000000 <.text>:
; PIC-COUNT-7:         cc int3
; PIC-EMPTY:
; PIC-NEXT: 0000000000000007 <__rsb_tail.f>:
; PIC-NEXT:         7: eb 17 jmp 0x20 <f>
; PIC-EMPTY:
; PIC-NEXT: 0000000000000009 <__rsb_entry.f>:
; PIC-NEXT:         9: 4c 8b 1d 00 00 00 00 movq (%rip), %r11
; PIC-NEXT:            000000000000000c: R_X86_64_{{(REX_)?}}GOTTPOFF __rsb_stats-0x4{{$}}
; PIC-NEXT:        10: 64 49 ff 03 incq %fs:(%r11)
; PIC-NEXT:        14: 4c 8b 1d 00 00 00 00 movq (%rip), %r11
; PIC-NEXT:            0000000000000017: R_X86_64_{{(REX_)?}}GOTTPOFF __rsb_depth-0x4{{$}}
; PIC-NEXT:        1b: 64 49 c1 3b 05 sarq $0x5, %fs:(%r11)
; PIC-EMPTY:
; PIC-NEXT: 0000000000000020 <f>:

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}
