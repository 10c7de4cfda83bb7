; -x86-rsb-stuff-return-check=inline is refused, with an error and no
; crash, where it cannot work: with the ret-thunk variant (which counts
; nothing), with a return thunk named (which it would never jump to), in
; kernel mode (the kernel's own return thunk), and for an unknown value.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-variant=ret-thunk -x86-rsb-stuff-return-check=inline \
; RUN:   %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RETTHUNK --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-thunk=my_thunk -x86-rsb-stuff-return-check=inline \
; RUN:   %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NAMED --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel \
; RUN:   -x86-rsb-stuff-kernel -x86-rsb-stuff-counter-offset=0 \
; RUN:   -x86-rsb-stuff-return-check=inline %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=KERNEL --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=outline %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=VALUE --implicit-check-not="Stack dump"

; RETTHUNK: error: x86-rsb-stuff: -x86-rsb-stuff-return-check=inline does not combine with -x86-rsb-stuff-variant=ret-thunk (which counts nothing)
; NAMED: error: x86-rsb-stuff: -x86-rsb-stuff-return-thunk names a thunk that -x86-rsb-stuff-return-check=inline never jumps to
; KERNEL: error: x86-rsb-stuff: -x86-rsb-stuff-return-check is a user-space option; -x86-rsb-stuff-kernel does not take it
; VALUE: Cannot find option named 'outline'

define void @f() {
  ret void
}
