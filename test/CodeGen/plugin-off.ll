; Loading the plugin without -x86-rsb-stuff changes nothing: the output is
; byte-identical to llc without the plugin, as assembly and as an object,
; for static and PIC code.

; RUN: llc -mtriple=x86_64-linux-gnu %s -o %t.base.s
; RUN: %llc -mtriple=x86_64-linux-gnu %s -o %t.plugin.s
; RUN: diff %t.base.s %t.plugin.s
; RUN: llc -mtriple=x86_64-linux-gnu -filetype=obj %s -o %t.base.o
; RUN: %llc -mtriple=x86_64-linux-gnu -filetype=obj %s -o %t.plugin.o
; RUN: cmp %t.base.o %t.plugin.o
; RUN: llc -mtriple=x86_64-linux-gnu -relocation-model=pic -filetype=obj %s \
; RUN:   -o %t.base.pic.o
; RUN: %llc -mtriple=x86_64-linux-gnu -relocation-model=pic -filetype=obj %s \
; RUN:   -o %t.plugin.pic.o
; RUN: cmp %t.base.pic.o %t.plugin.pic.o
;; Options other than the switch itself do not enable anything.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff-stats \
; RUN:   -x86-rsb-stuff-tls=initial-exec %s -o %t.opts.s
; RUN: diff %t.base.s %t.opts.s
;; The output really is plain.
; RUN: FileCheck %s --implicit-check-not=__rsb < %t.plugin.s

; CHECK-LABEL: {{^}}f:
; CHECK:         callq leaf
; CHECK:         callq ext@PLT
; CHECK:         retq
; CHECK-LABEL: {{^}}g:
; CHECK:         jmp ext@PLT # TAILCALL

declare void @ext()

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @f() {
  call void @leaf()
  call void @ext()
  call void asm sideeffect "", ""()
  ret void
}

define void @g() {
  tail call void @ext()
  ret void
}
