; A function's own IR alignment (`align 32`, `align 64`: what
; __attribute__((aligned(N))) and clang -falign-functions=N produce) must be
; kept: the AsmPrinter still aligns to the IR alignment (the pass only
; drops the MachineFunction's), and the streamer's int3 filler counts to it
; as well, so that f stays aligned, as it does for -align-all-functions
; (entry-alignment-all-functions.ll).

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o > %t.sym
; RUN: FileCheck %s --check-prefix=SYM < %t.sym
; RUN: FileCheck %s --check-prefix=ALIGN < %t.sym
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=OBJ
;; The same through clang.
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-readelf -s %t.clang.o | FileCheck %s --check-prefix=ALIGN

; SYM-DAG: [[#%x,A32:]] [[#]] FUNC GLOBAL DEFAULT [[#]] a32{{$}}
; SYM-DAG: [[#%.16x,A32-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.a32{{$}}
; SYM-DAG: [[#%x,A64:]] [[#]] FUNC GLOBAL DEFAULT [[#]] a64{{$}}
; SYM-DAG: [[#%.16x,A64-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.a64{{$}}

; ALIGN-DAG: {{[0-9a-f]{14}[02468ace]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] a32{{$}}
; ALIGN-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] a64{{$}}

;; Only int3 between the alignment NOPs and the accounting (a16 and a32 may
;; be reached by indirect calls: the anchor is 64-byte aligned, so a32 needs
;; no alignment of its own beyond its .p2align 5).
; OBJ:      <__rsb_entry.a16>:
; OBJ:      jmp
; OBJ-NOT:  {{^ +[0-9a-f]+: (64|e8|e9|c3)}}
; OBJ-COUNT-52: cc int3
; OBJ-EMPTY:
; OBJ-NEXT: <__rsb_tail.a32>:
; OBJ-NEXT: eb 0a jmp
; OBJ-EMPTY:
; OBJ-NEXT: <__rsb_entry.a32>:
; OBJ:      jmp
; OBJ-NOT:  {{^ +[0-9a-f]+: (64|e8|e9|c3)}}
; OBJ-COUNT-52: cc int3
; OBJ-EMPTY:
; OBJ-NEXT: <__rsb_tail.a64>:
; OBJ-NEXT: eb 0a jmp
; OBJ-EMPTY:
; OBJ-NEXT: <__rsb_entry.a64>:

define i32 @a16(i32 %x) nounwind {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @a32(i32 %x) nounwind align 32 {
  %r = add i32 %x, 2
  ret i32 %r
}

define i32 @a64(i32 %x) nounwind align 64 {
  %r = add i32 %x, 3
  ret i32 %r
}
