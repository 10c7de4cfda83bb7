; Kernel mode: the counter's symbol, offset, segment and addressing come from
; options, so that a kernel whose per-CPU layout differs from 6.12's (or a
; 32-bit-absolute per-CPU reference) can be served without a new plugin.

; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=24 -x86-rsb-stuff-counter=x86_call_depth \
; RUN:   %s -o - | FileCheck %s --check-prefix=SYMBOL
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -x86-rsb-stuff-counter-absolute \
; RUN:   %s -o - | FileCheck %s --check-prefix=ABS
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=0 -x86-rsb-stuff-counter-segment=none \
; RUN:   %s -o - | FileCheck %s --check-prefix=NOSEG
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=8 -x86-rsb-stuff-counter-segment=fs \
; RUN:   %s -o - | FileCheck %s --check-prefix=FS

; SYMBOL-LABEL: __rsb_entry.f:
; SYMBOL-NEXT:    sarq $5, %gs:x86_call_depth+24(%rip)
; SYMBOL-NEXT:  f:
; ABS-LABEL:    __rsb_entry.f:
; ABS-NEXT:       sarq $5, %gs:pcpu_hot+16{{$}}
; ABS-NEXT:     f:
; NOSEG-LABEL:  __rsb_entry.f:
; NOSEG-NEXT:     sarq $5, pcpu_hot(%rip)
; NOSEG-NEXT:   f:
; FS-LABEL:     __rsb_entry.f:
; FS-NEXT:        sarq $5, %fs:pcpu_hot+8(%rip)
; FS-NEXT:      f:

define i32 @f(i32 %x) #0 {
  %r = add i32 %x, 1
  ret i32 %r
}

attributes #0 = { fn_ret_thunk_extern nounwind "patchable-function-prefix"="16" }
