; Under -fcf-protection=branch (module flag cf-protection-branch) an entry
; starts with ENDBR64: callers in other objects and modules reach it through
; PLT and GOT slots, which are indirect branches that IBT requires to land
; on an ENDBR. The accounting still ends exactly at f, which keeps its own
; ENDBR. The initial-exec form fits the 16 bytes exactly; the form that
; saves %r11 needs 20 and gets a 32-byte prefix. The tail alias, reached
; through PLTs too, starts with ENDBR64 as well; it goes out of line where
; the prefix has no 6 bytes left for it.

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk %s -o - \
; RUN:   | FileCheck %s --check-prefix=EXE
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s --check-prefix=PIC
;; Without the module flag no ENDBR64 is added to entries.
; RUN: sed -e 's/cf-protection-branch/no-such-flag/' %s \
; RUN:   | %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -o - \
; RUN:   | FileCheck %s --check-prefix=NOCET

; EXE-LABEL: .section .text.rsb_call_thunks,"ax",@progbits
; EXE:       __rsb_tail.f:
; EXE-NEXT:    .cfi_startproc
; EXE-NEXT:    endbr64
; EXE-NEXT:    jmp [[BODY:.Lrsb_body[0-9]+]]
; EXE-LABEL: __rsb_entry.f:
; EXE-NEXT:    .cfi_startproc
; EXE-NEXT:    endbr64
; EXE-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; EXE-NEXT:    .cfi_endproc
; EXE-NEXT:    .size __rsb_entry.f, f-__rsb_entry.f
; EXE-NEXT:  [[BODY]]:
; EXE-NEXT:  {{^}}f:
; EXE-NEXT:    .cfi_startproc
; EXE-NEXT:  # %bb.0:
; EXE-NEXT:    endbr64

; PIC:       0000000000000000 <__rsb_entry.f>:
; PIC-NEXT:     0: endbr64
; PIC-NEXT:     4: movq (%rip), %r11
; PIC-NEXT:     b: sarq $0x5, %fs:(%r11)
; PIC-EMPTY:
; PIC-NEXT:  0000000000000010 <f>:
; PIC-NEXT:    10: endbr64
; PIC:       <__rsb_tail.keep>:
; PIC-NEXT:      endbr64
; PIC-NEXT:      jmp 0x40 <keep>
; PIC-EMPTY:
; PIC-NEXT:  <__rsb_entry.keep>:
; PIC-NEXT:      endbr64
; PIC-NEXT:      pushq %r11
; PIC-NEXT:      movq (%rip), %r11
; PIC-NEXT:      sarq $0x5, %fs:(%r11)
; PIC-NEXT:      popq %r11
; PIC-EMPTY:
; PIC-NEXT:  0000000000000040 <keep>:

; NOCET-LABEL: __rsb_entry.f:
; NOCET-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

define void @keep(ptr %p) "no_caller_saved_registers" {
  store i64 1, ptr %p
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"cf-protection-branch", i32 1}
