; Data the AsmPrinter puts right before a function's entry (IR prefix data,
; -fsanitize=function's signature and type hash, a KCFI type hash,
; -fpatchable-function-entry=N,M's M NOPs) must end exactly at the entry,
; where the accounting prefix would go: such a function gets its accounting
; entry out of line, `__rsb_entry.f: sarq; jmp f` in .text.rsb_call_thunks,
; with its tail alias `__rsb_tail.f: jmp f`, and its data stays where UBSan's and KCFI's checks read it (f - 8, f - 4).
; Before, each was skipped with only a remark, and a build with
; -fsanitize=undefined or -fsanitize=kcfi had no instrumented function at
; all. Prologue data sits after the entry label and keeps the prefix.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr --no-show-raw-insn %t.o | FileCheck %s --check-prefix=OBJ

; CHECK-LABEL: .type with_prefix,@function
; CHECK-NEXT:    .long 3405691582
; CHECK-NEXT:    .section .text.rsb_call_thunks,"ax",@progbits
; CHECK:       __rsb_entry.with_prefix:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    jmp [[BODY:.Lrsb_body[0-9]+]]
; CHECK:         .section .text.rsb_call_thunks,"ax",@progbits
; CHECK:       __rsb_tail.with_prefix:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    jmp [[BODY]]
; CHECK:         .text
; CHECK-NEXT:  [[BODY]]:
; CHECK-NEXT:  with_prefix:
; CHECK:         je __rsb_refill_return # TAILCALL

; CHECK-LABEL: .type with_ubsan,@function
; CHECK-NEXT:    .long 3238382334
; CHECK-NEXT:    .long 1234
; CHECK-NEXT:    .section .text.rsb_call_thunks,"ax",@progbits
; CHECK:       __rsb_entry.with_ubsan:
; CHECK:         jmp .Lrsb_body
; CHECK:       {{^}}with_ubsan:
; CHECK:         je __rsb_refill_return # TAILCALL

; CHECK-LABEL: .type with_kcfi,@function
; CHECK:       __cfi_with_kcfi:
; CHECK:         movl $12345678, %eax
; CHECK:         .size __cfi_with_kcfi, .Lcfi_func_end0-__cfi_with_kcfi
; CHECK-NEXT:    .section .text.rsb_call_thunks,"ax",@progbits
; CHECK:       __rsb_entry.with_kcfi:
; CHECK:         jmp .Lrsb_body
; CHECK:       {{^}}with_kcfi:
; CHECK:         je __rsb_refill_return # TAILCALL

; The 3 NOPs of the prefix (after 13 that keep the entry aligned in a KCFI
; module) end at the entry.
; CHECK-LABEL: .type with_nops,@function
; CHECK:       .Ltmp[[#]]:
; CHECK-NEXT:    nop
; CHECK-NEXT:    nop
; CHECK-NEXT:    nop
; CHECK-NEXT:    .section .text.rsb_call_thunks,"ax",@progbits
; CHECK:       __rsb_entry.with_nops:
; CHECK:         jmp .Lrsb_body
; CHECK:       {{^}}with_nops:
; CHECK:         je __rsb_refill_return # TAILCALL

; CHECK-LABEL: __rsb_entry.with_prologue:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    .cfi_endproc
; CHECK:       {{^}}with_prologue:
; CHECK-NEXT:    .cfi_startproc
; CHECK-NEXT:    .asciz "\353"
; CHECK:         je __rsb_refill_return # TAILCALL

; Calls are counted through the entries; nothing resets.
; CHECK-LABEL: {{^}}caller:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_entry.with_prefix@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.with_ubsan@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.with_kcfi@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.with_nops@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.with_prologue@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL

; The entries jump to the function through a local label, never its
; symbol: in a shared object a jump to the symbol would go through the PLT
; to whatever definition interposes it, after the call was counted.
; OBJ:      <__rsb_entry.with_prefix>:
; OBJ-NEXT:   sarq $0x5, %fs:0x0
; OBJ-NEXT:     R_X86_64_TPOFF32 __rsb_depth
; OBJ-NEXT:   jmp
; OBJ-NEXT:     R_X86_64_PLT32 .text{{(\+0x[0-9a-f]+)?$}}

define void @with_prefix() noinline prefix i32 3405691582 {
  ret void
}

define void @with_ubsan() noinline !func_sanitize !0 {
  ret void
}

define void @with_kcfi() noinline !kcfi_type !1 {
  ret void
}

define void @with_nops() noinline "patchable-function-prefix"="3" {
  ret void
}

define void @with_prologue() noinline prologue [2 x i8] c"\EB\00" {
  ret void
}

define void @caller() {
  call void @with_prefix()
  call void @with_ubsan()
  call void @with_kcfi()
  call void @with_nops()
  call void @with_prologue()
  call void asm sideeffect "", ""()
  ret void
}

!llvm.module.flags = !{!2}
!0 = !{i32 -1056584962, i32 1234}
!1 = !{i32 12345678}
!2 = !{i32 4, !"kcfi", i32 1}
