; -x86-rsb-stuff only serves x86-64 (LP64) ELF in the user-space code model.
; Anything else is a clear `error:` naming the target, a non-zero exit and no
; crash (`not` fails on a crash; no stack dump either).

; RUN: not %llc -mtriple=aarch64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=AARCH64 --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit"
; RUN: not %llc -mtriple=x86_64-apple-macosx -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MACHO --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit"
; RUN: not %llc -mtriple=x86_64-pc-windows-msvc -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COFF --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit"
; RUN: not %llc -mtriple=i386-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=I386 --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit"
; RUN: not %llc -mtriple=x86_64-linux-gnux32 -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=X32 --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit"
; RUN: not %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL \
; RUN:   --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
;; Object output fails the same way.
; RUN: not %llc -mtriple=aarch64-linux-gnu -x86-rsb-stuff -filetype=obj %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=AARCH64 \
; RUN:   --implicit-check-not="Stack dump"
;; Without -x86-rsb-stuff the plugin does not get in the way of other targets.
; RUN: %llc -mtriple=aarch64-linux-gnu %s -o /dev/null 2>&1 | count 0
; RUN: %llc -mtriple=x86_64-pc-windows-msvc %s -o /dev/null 2>&1 | count 0
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel %s -o /dev/null 2>&1 \
; RUN:   | count 0

; AARCH64: error: x86-rsb-stuff: target 'aarch64-unknown-linux-gnu' is not supported: only x86-64 (LP64) is
; MACHO:   error: x86-rsb-stuff: target 'x86_64-apple-macosx' is not supported: only ELF object files are
; COFF:    error: x86-rsb-stuff: target 'x86_64-pc-windows-msvc' is not supported: only ELF object files are
; I386:    error: x86-rsb-stuff: target 'i386-unknown-linux-gnu' is not supported: only x86-64 (LP64) is
; X32:     error: x86-rsb-stuff: target 'x86_64-unknown-linux-gnux32' is not supported: only x86-64 (LP64) is
; KERNEL:  error: x86-rsb-stuff: -mcmodel=kernel needs -x86-rsb-stuff-kernel

define void @f() {
  ret void
}
