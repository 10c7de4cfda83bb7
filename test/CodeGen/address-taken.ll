; Taking a function's address still yields f itself, never its accounting
; entry: function pointers compare equal across instrumented and plain code,
; and calls through them are uncounted (they land on f, after the prefix).
; Only direct call instructions are redirected.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,STATIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefixes=CHECK,PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: llvm-readelf -r %t.o | FileCheck %s --check-prefix=RELOC

@slot = global ptr null
;; Static initializers refer to f and leaf, not to their entries.
@table = global [2 x ptr] [ptr @f, ptr @leaf]

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @f() noinline {
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}store_ptr:
; CHECK-NOT:     __rsb_entry
; CHECK:         movq f@GOTPCREL(%rip), %rax
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define void @store_ptr() {
  store ptr @f, ptr @slot
  ret void
}

; CHECK-LABEL: {{^}}return_ptr:
; CHECK-NOT:     __rsb_entry
; STATIC:        movl $leaf, %eax
; PIC:           leaq leaf(%rip), %rax
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define ptr @return_ptr() {
  ret ptr @leaf
}

; CHECK-LABEL: {{^}}compare:
; CHECK-NOT:     __rsb_entry
; CHECK:         cmpq f@GOTPCREL(%rip), %rdi
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define i1 @compare(ptr %p) {
  %e = icmp eq ptr %p, @f
  ret i1 %e
}

;; Calling and taking the address in one function: only the call moves.
; CHECK-LABEL: {{^}}both:
; CHECK:         callq __rsb_entry.f@PLT
; CHECK-NEXT:    movq f@GOTPCREL(%rip), %rax
; CHECK:         je __rsb_refill_return
define ptr @both() {
  call void @f()
  ret ptr @f
}

;; leaf is at .text+0x10, its entry at .text+0x6.
; SYM-DAG:     0000000000000010 {{.*}} FUNC LOCAL DEFAULT [[#]] leaf{{$}}
; SYM-DAG:     0000000000000006 {{.*}} FUNC LOCAL DEFAULT [[#]] __rsb_entry.leaf{{$}}
; RELOC-LABEL: Relocation section '.rela.text'
; RELOC:       R_X86_64_REX_GOTPCRELX {{.*}} f - 4
; RELOC:       R_X86_64_32 {{.*}} .text + 10{{$}}
; RELOC:       R_X86_64_PLT32 {{.*}} __rsb_entry.f - 4
; RELOC-NEXT:  R_X86_64_REX_GOTPCRELX {{.*}} f - 4
; RELOC-LABEL: Relocation section '.rela.data'
; RELOC-NEXT:  Offset
; RELOC-NEXT:  R_X86_64_64 {{.*}} f + 0{{$}}
; RELOC-NEXT:  R_X86_64_64 {{.*}} .text + 10{{$}}
; RELOC-LABEL: Relocation section '.rela.eh_frame'
