; -fno-plt turns a call to a function outside the object into an indirect
; call through its GOT slot, `callq *f@GOTPCREL(%rip)` (and a tail call into
; `jmpq *f@GOTPCREL(%rip)`). The target is still known at link time: the
; slot's symbol is retargeted to the entry (tail alias), so the call is
; counted like a direct one and needs no reset. Before, each such call was
; uncounted and followed by a reset. An indirect call through a pointer
; stays as it was.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic %s \
; RUN:   -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
;; Without the plugin's option, the same GOT calls.
; RUN: llc -mtriple=x86_64-linux-gnu -relocation-model=pic %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF

; OFF-LABEL: {{^}}caller:
; OFF:         callq *ext@GOTPCREL(%rip)
; OFF-LABEL: {{^}}tail:
; OFF:         jmpq *ext@GOTPCREL(%rip) # TAILCALL

; CHECK-LABEL: {{^}}caller:
; CHECK:         callq *__rsb_entry.ext@GOTPCREL(%rip)
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq *%rbx
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-LABEL: {{^}}tail:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         jmpq *__rsb_tail.ext@GOTPCREL(%rip) # TAILCALL

; OBJ-LABEL: <caller>:
; OBJ:         R_X86_64_GOTPCRELX __rsb_entry.ext-0x4
; OBJ-LABEL: <tail>:
; OBJ:         R_X86_64_GOTPCRELX __rsb_tail.ext-0x4

declare i32 @ext(i32) nonlazybind

define i32 @caller(i32 %x, ptr %fp) {
  %a = call i32 @ext(i32 %x)
  %b = call i32 %fp(i32 %a)
  %r = add i32 %a, %b
  ret i32 %r
}

define i32 @tail(i32 %x) {
  %r = tail call i32 @ext(i32 %x)
  ret i32 %r
}
