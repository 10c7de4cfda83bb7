; With a function alignment above 16 (-align-all-functions), the int3
; filler in front of the prefix counts to that alignment, so that f stays
; aligned and the accounting still ends exactly at f. The filler is never
; executed: the previous function ends in a jmp, and the int3 come before
; the accounting, so a fall-through traps instead of counting a call.
; Counted indirect calls are off here: they double the modulus of these
; functions' alignment (test/CodeGen/prefix-off-page-start.ll).

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -align-all-functions=6 \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t64.o
; RUN: llvm-objdump -dr %t64.o | FileCheck %s --check-prefix=OBJ64
; RUN: llvm-readelf -s %t64.o > %t64.sym
; RUN: FileCheck %s --check-prefix=SYM < %t64.sym
; RUN: FileCheck %s --check-prefix=ALIGN64 < %t64.sym
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -align-all-functions=6 \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM64
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -align-all-functions=5 \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t32.o
; RUN: llvm-readelf -s %t32.o > %t32.sym
; RUN: FileCheck %s --check-prefix=SYM < %t32.sym
; RUN: FileCheck %s --check-prefix=ALIGN32 < %t32.sym
;; Statistics mode: the 19-byte accounting, placed the same way.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -x86-rsb-stuff-stats \
; RUN:   -x86-rsb-stuff-count-indirect=false -align-all-functions=5 \
; RUN:   -filetype=obj %s -o %t32s.o
; RUN: llvm-readelf -s %t32s.o > %t32s.sym
; RUN: FileCheck %s --check-prefix=STATS < %t32s.sym
; RUN: FileCheck %s --check-prefix=ALIGN32 < %t32s.sym
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -x86-rsb-stuff-stats \
; RUN:   -x86-rsb-stuff-count-indirect=false -align-all-functions=6 \
; RUN:   -filetype=obj %s -o %t64s.o
; RUN: llvm-readelf -s %t64s.o > %t64s.sym
; RUN: FileCheck %s --check-prefix=STATS < %t64s.sym
; RUN: FileCheck %s --check-prefix=ALIGN64 < %t64s.sym

;; No alignment directive of the AsmPrinter: the streamer's anchor, aligned
;; once, then the fill of each function, counted modulo 64 from it.
; ASM64:         .type first,@function
; ASM64-NEXT:    .p2align 6
; ASM64-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; ASM64-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; ASM64-NEXT:    .zero (116-(([[FILL]]-[[ANCHOR]])&63))&63,204
; ASM64-NEXT:    .type __rsb_tail.first,@function
; ASM64:         .type __rsb_entry.first,@function
; ASM64:         .type second,@function
; ASM64-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; ASM64-NEXT:    .zero (116-(([[FILL]]-[[ANCHOR]])&63))&63,204
; ASM64-NEXT:    .type __rsb_tail.second,@function
; ASM64:         .type __rsb_entry.second,@function
; ASM64:         .type third,@function
; ASM64-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; ASM64-NEXT:    .zero (116-(([[FILL]]-[[ANCHOR]])&63))&63,204
; ASM64-NEXT:    .type __rsb_tail.third,@function
; ASM64:         .type __rsb_entry.third,@function

; OBJ64-LABEL: 0000000000000000 <.text>:
; OBJ64-NEXT:         0: cc int3
; OBJ64-COUNT-51:        cc int3
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000034 <__rsb_tail.first>:
; OBJ64-NEXT:        34: eb 0a jmp 0x40 <first>
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000036 <__rsb_entry.first>:
; OBJ64-NEXT:        36: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ64-NEXT:            000000000000003b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000040 <first>:
; OBJ64-NEXT:        40: 8d 47 01 leal 0x1(%rdi), %eax
; OBJ64-NEXT:        43: e9 00 00 00 00 jmp
; OBJ64-NEXT:            0000000000000044: R_X86_64_PLT32 __rsb_return_thunk-0x4
;; Only int3 until the next prefix, which ends at the next 64-byte boundary.
; OBJ64-NEXT:        48: cc int3
; OBJ64-COUNT-43:        cc int3
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000074 <__rsb_tail.second>:
; OBJ64-NEXT:        74: eb 0a jmp 0x80 <second>
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000076 <__rsb_entry.second>:
; OBJ64-NEXT:        76: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ64-NEXT:            000000000000007b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ64-EMPTY:
; OBJ64-NEXT: 0000000000000080 <second>:

; SYM-DAG: [[#%x,FIRST:]] [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
; SYM-DAG: [[#%.16x,FIRST-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.first{{$}}
; SYM-DAG: [[#%x,SECOND:]] [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
; SYM-DAG: [[#%.16x,SECOND-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.second{{$}}
; SYM-DAG: [[#%x,THIRD:]] [[#]] FUNC GLOBAL DEFAULT [[#]] third{{$}}
; SYM-DAG: [[#%.16x,THIRD-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.third{{$}}

; STATS-DAG: [[#%x,FIRST:]] [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
; STATS-DAG: [[#%.16x,FIRST-19]] 19 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.first{{$}}
; STATS-DAG: [[#%x,SECOND:]] [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
; STATS-DAG: [[#%.16x,SECOND-19]] 19 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.second{{$}}

; ALIGN64-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
; ALIGN64-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
; ALIGN64-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] third{{$}}
; ALIGN32-DAG: {{[0-9a-f]{14}[02468ace]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
; ALIGN32-DAG: {{[0-9a-f]{14}[02468ace]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
; ALIGN32-DAG: {{[0-9a-f]{14}[02468ace]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] third{{$}}

define i32 @first(i32 %x) nounwind {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @second(i32 %x) nounwind {
  %r = mul i32 %x, 7
  ret i32 %r
}

define i32 @third(i32 %x) nounwind {
  %a = call i32 @first(i32 %x)
  %b = call i32 @second(i32 %a)
  ret i32 %b
}
