; Kernel mode: the template is the kernel's own accounting
; (`sarq $5, %gs:pcpu_hot+X86_call_depth(%rip)`, 9 bytes) and fills the last
; bytes of the -fpatchable-function-entry padding, so the boot-time patcher
; finds it "already patched". The padding keeps its size (f stays aligned,
; __patchable_function_entries still points at its start) and __pfx_f spans
; it, as objtool's own __pfx_ symbols do.

; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 %s -o - | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
;; The same through clang with the kernel's own flags.
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-kernel \
; RUN:   -mllvm -x86-rsb-stuff-counter-offset=16 -target x86_64-linux-gnu -O2 \
; RUN:   -mcmodel=kernel -mno-red-zone -fno-pic -mfunction-return=thunk-extern \
; RUN:   -mretpoline-external-thunk -mindirect-branch-cs-prefix \
; RUN:   -fpatchable-function-entry=16,16 -falign-functions=16 \
; RUN:   -Wno-override-module -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -dr %t.clang.o | FileCheck %s --check-prefix=OBJ

; ASM-LABEL: .type f,@function
; ASM-NEXT:  .Ltmp0:
; ASM-COUNT-7: nop
; ASM-NEXT:    .type __pfx_f,@function
; ASM-NEXT:    .globl __pfx_f
; ASM-NEXT:  __pfx_f = f-16
; ASM-NEXT:    .size __pfx_f, 16
; ASM-NEXT:  __rsb_entry.f:
; ASM-NEXT:    sarq $5, %gs:pcpu_hot+16(%rip)
; ASM-NEXT:  f:
; ASM-NOT:     ret{{$}}
; ASM:         jmp __x86_return_thunk
; ASM:         .section __patchable_function_entries
; ASM-NEXT:    .p2align 3
; ASM-NEXT:    .quad .Ltmp0

; OBJ-LABEL: 0000000000000000 <__pfx_f>:
; OBJ-COUNT-7:  90 nop
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000007 <__rsb_entry.f>:
; OBJ-NEXT:        7: 65 48 c1 3d 00 00 00 00 05 sarq $0x5, %gs:(%rip)
; OBJ-NEXT:           000000000000000b: R_X86_64_PC32 pcpu_hot+0xb
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000010 <f>:

; SYM-DAG: 0000000000000010 [[#]] FUNC GLOBAL DEFAULT [[#]] f{{$}}
; SYM-DAG: 0000000000000000 16 FUNC GLOBAL DEFAULT [[#]] __pfx_f{{$}}

define i32 @f(i32 %x) #0 {
  %r = add i32 %x, 1
  ret i32 %r
}

attributes #0 = { fn_ret_thunk_extern nounwind "patchable-function-prefix"="16" }
