; The initial-exec prefix (-fPIC shared objects) loads the counter's offset
; into %r11, and the PIC return thunk does the same. Where %r11 carries an
; argument (preserve_none passes its 11th in %r11) or must survive the call
; (no_caller_saved_registers: every register is callee-saved), the prefix
; saves and restores it around the counter access, with the CFA moves in its
; FDE. Where it must survive the return, the function returns through
; __rsb_tail_account, which accounts the return like the thunk and keeps
; every general register. Before this, both clobbered %r11 and the caller
; got it back wrong. The local-exec prefix of executables touches no
; register and is unchanged.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-dwarfdump --eh-frame %t.o | FileCheck %s --check-prefix=EH
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=EXE

; PIC-LABEL: __rsb_entry.pnone:
; PIC-NEXT:    .cfi_startproc
; PIC-NEXT:    pushq %r11
; PIC-NEXT:    .cfi_adjust_cfa_offset 8
; PIC-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:    sarq $5, %fs:(%r11)
; PIC-NEXT:    popq %r11
; PIC-NEXT:    .cfi_adjust_cfa_offset -8
; PIC-NEXT:    .cfi_endproc
; PIC-LABEL: {{^}}pnone:
; PIC:         movq %r11, %rax
; PIC-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:    shlq $5, %fs:(%r11)
; PIC-NEXT:    je __rsb_refill_return # TAILCALL

; PIC-LABEL: __rsb_entry.ncsr:
; PIC-NEXT:    .cfi_startproc
; PIC-NEXT:    pushq %r11
; PIC:         popq %r11
; PIC-LABEL: {{^}}ncsr:
; PIC:         jmp __rsb_tail_account # TAILCALL

; The plain C function needs neither.
; PIC-LABEL: __rsb_entry.plain:
; PIC-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:    sarq $5, %fs:(%r11)
; PIC-NEXT:    .cfi_endproc
; PIC-LABEL: {{^}}plain:
; PIC:         je __rsb_refill_return # TAILCALL

; The saved %r11 is visible to the unwinder: CFA = rsp + 16 after the push.
; EH:      FDE cie=00000000 pc=00000000...00000010
; EH:      0x2: CFA=RSP+16: RIP=[CFA-8]
; EH-NEXT: 0x10: CFA=RSP+8: RIP=[CFA-8]

; EXE-LABEL: __rsb_entry.pnone:
; EXE-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; EXE-NEXT:    .cfi_endproc
; EXE-LABEL: {{^}}ncsr:
; EXE:         jmp __rsb_tail_account # TAILCALL

define preserve_nonecc i64 @pnone(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h, i64 %i, i64 %j, i64 %k) noinline uwtable {
  ret i64 %k
}

define void @ncsr(ptr %p) noinline uwtable "no_caller_saved_registers" {
  store i64 1, ptr %p
  ret void
}

define i64 @plain(i64 %x) noinline uwtable {
  ret i64 %x
}
