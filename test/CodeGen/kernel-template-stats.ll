; Kernel mode with CALL_THUNKS_DEBUG (-x86-rsb-stuff-stats): the kernel's
; template then also counts the call, `incq %gs:__x86_call_count(%rip)`,
; 17 bytes in all, in the last bytes of a 32-byte padding.

; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -x86-rsb-stuff-stats -filetype=obj \
; RUN:   %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM

; CHECK-LABEL: 0000000000000000 <__pfx_f>:
; CHECK-COUNT-15: 90 nop
; CHECK-EMPTY:
; CHECK-NEXT: 000000000000000f <__rsb_entry.f>:
; CHECK-NEXT:        f: 65 48 c1 3d 00 00 00 00 05 sarq $0x5, %gs:(%rip)
; CHECK-NEXT:           0000000000000013: R_X86_64_PC32 pcpu_hot+0xb
; CHECK-NEXT:       18: 65 48 ff 05 00 00 00 00 incq %gs:(%rip)
; CHECK-NEXT:           000000000000001c: R_X86_64_PC32 __x86_call_count-0x4
; CHECK-EMPTY:
; CHECK-NEXT: 0000000000000020 <f>:

; SYM: 0000000000000000 32 FUNC LOCAL DEFAULT [[#]] __pfx_f{{$}}

define internal i32 @f(i32 %x) #0 {
  %r = add i32 %x, 1
  ret i32 %r
}

define i32 @g(i32 %x) #0 {
  %r = call i32 @f(i32 %x)
  ret i32 %r
}

attributes #0 = { fn_ret_thunk_extern nounwind noinline "patchable-function-prefix"="32" }
