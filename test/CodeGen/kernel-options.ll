; Kernel mode refuses what it cannot serve with a clear error and a non-zero
; exit, never a crash: a missing counter offset (it must come from the kernel
; build), kernel options without kernel mode, user-space options with it,
; -mcmodel=kernel without it, and KCFI, whose type hash occupies the padding.
; Outside -mcmodel=kernel (the vDSO gets KCFLAGS too) it leaves every
; function alone, with a remark.

; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel \
; RUN:   -x86-rsb-stuff-kernel %s -o /dev/null 2>&1 | FileCheck %s \
; RUN:   --check-prefix=NO-OFFSET --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-counter-offset=16 %s -o /dev/null 2>&1 | FileCheck %s \
; RUN:   --check-prefix=KERNEL-ONLY --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel \
; RUN:   -x86-rsb-stuff-kernel -x86-rsb-stuff-counter-offset=16 \
; RUN:   -x86-rsb-stuff-elide-depth=2 %s -o /dev/null 2>&1 | FileCheck %s \
; RUN:   --check-prefix=USER-ONLY --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel \
; RUN:   -x86-rsb-stuff-kernel -x86-rsb-stuff-counter-offset=16 \
; RUN:   -x86-rsb-stuff-counter-segment=es %s -o /dev/null 2>&1 | FileCheck %s \
; RUN:   --check-prefix=BAD-SEGMENT --implicit-check-not="Stack dump"
; RUN: sed "s/^;MODFLAG: //" %s > %t.kcfi.ll
; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel \
; RUN:   -x86-rsb-stuff-kernel -x86-rsb-stuff-counter-offset=16 %t.kcfi.ll \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=KCFI \
; RUN:   --implicit-check-not="Stack dump"
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -pass-remarks-missed=x86-rsb-stuff \
; RUN:   %s -o - 2>&1 | FileCheck %s --check-prefix=SMALL-MODEL \
; RUN:   --implicit-check-not=sarq

; NO-OFFSET: error: x86-rsb-stuff: -x86-rsb-stuff-kernel needs -x86-rsb-stuff-counter-offset=<X86_call_depth> (from the kernel build's include/generated/asm-offsets.h)
; KERNEL-ONLY: error: x86-rsb-stuff: -x86-rsb-stuff-counter-offset only applies with -x86-rsb-stuff-kernel
; USER-ONLY: error: x86-rsb-stuff: -x86-rsb-stuff-elide-depth is a user-space option; -x86-rsb-stuff-kernel does not take it
; BAD-SEGMENT: for the --x86-rsb-stuff-counter-segment option: Cannot find option named 'es'!
; KCFI: error: x86-rsb-stuff: -fsanitize=kcfi is not supported with -x86-rsb-stuff-kernel: the KCFI type hash occupies the padding that the template needs
; SMALL-MODEL: remark: {{.*}}'f' not instrumented: not kernel code (no -mcmodel=kernel)

define i32 @f(i32 %x) #0 {
  %r = add i32 %x, 1
  ret i32 %r
}

attributes #0 = { fn_ret_thunk_extern nounwind "patchable-function-prefix"="16" }

;MODFLAG: !llvm.module.flags = !{!0}
;MODFLAG: !0 = !{i32 4, !"kcfi", i32 1}
