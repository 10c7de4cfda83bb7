; -x86-rsb-stuff-reset=false turns the credit resets off and brings back the
; earlier behaviour: no `callq __rsb_reset_depth` after uncounted calls,
; after returns_twice calls or at landing pads, and every tail call to a
; plain target, leaf or not, is preceded by the tail accounting helper
; (`__rsb_tail_account`, or `__rsb_tail_account_flags` before a conditional
; tail call). Redirection and return lowering are unchanged. The default
; (-x86-rsb-stuff-reset=true) inserts the resets (DEFAULT runs). Indirect
; calls are left uncounted here (-x86-rsb-stuff-count-indirect=false):
; indirect-call-mark.ll has the counted form.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-reset=false \
; RUN:   -x86-rsb-stuff-count-indirect=false -pass-remarks=x86-rsb-stuff \
; RUN:   %s -o %t.s 2>%t.remarks
; RUN: FileCheck %s --check-prefixes=CHECK,CFI < %t.s --implicit-check-not=__rsb_reset_depth
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-reset=false \
; RUN:   -x86-rsb-stuff-count-indirect=false -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ \
; RUN:   --implicit-check-not=__rsb_reset_depth
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-reset=false -target x86_64-linux-gnu \
; RUN:   -mllvm -x86-rsb-stuff-count-indirect=false \
; RUN:   -O2 -fno-pic -Wno-override-module -S -x ir %s -o - \
; RUN:   | FileCheck %s --implicit-check-not=__rsb_reset_depth
;; The default, and explicitly on.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=DEFAULT
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-reset=true \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=DEFAULT

declare i32 @printf(ptr, ...)
declare i32 @puts(ptr)
declare i32 @setjmp(ptr) returns_twice
declare void @may_throw()
declare void @handle(ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: {{^}}calls:
; CHECK:         callq printf@PLT{{$}}
; CHECK-NEXT:    callq *%r{{[a-z0-9]+$}}
; CHECK-NEXT:    movq %r{{[a-z0-9]+}}, %rdi
; CHECK-NEXT:    callq setjmp@PLT{{$}}
; CHECK:         je __rsb_refill_return # TAILCALL
; DEFAULT-LABEL: {{^}}calls:
; DEFAULT:         callq printf@PLT{{$}}
; DEFAULT-NEXT:    callq __rsb_reset_depth{{$}}
; DEFAULT-NEXT:    callq *%r{{[a-z0-9]+$}}
; DEFAULT-NEXT:    callq __rsb_reset_depth{{$}}
; DEFAULT-NEXT:    movq %r{{[a-z0-9]+}}, %rdi
; DEFAULT-NEXT:    callq setjmp@PLT{{$}}
; DEFAULT-NEXT:    callq __rsb_reset_depth{{$}}
define i32 @calls(ptr %fmt, ptr %fp, ptr %buf) {
  %p = call i32 (ptr, ...) @printf(ptr %fmt)
  call void %fp()
  %r = call i32 @setjmp(ptr %buf)
  call void asm sideeffect "", ""()
  ret i32 %r
}

; CHECK-LABEL: {{^}}pad:
; CHECK:       .LBB1_[[#]]: # %lpad
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    movq %rax, %rdi
; DEFAULT-LABEL: {{^}}pad:
; DEFAULT:       .LBB1_[[#]]: # %lpad
; DEFAULT-NEXT:    .cfi_def_cfa_offset 16
; DEFAULT-NEXT:  .Ltmp[[#]]:
; DEFAULT-NEXT:    callq __rsb_reset_depth{{$}}
define void @pad() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw()
          to label %done unwind label %lpad
done:
  call void asm sideeffect "", ""()
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  call void @handle(ptr %exn)
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}tail_libc:
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp puts@PLT # TAILCALL
; DEFAULT-LABEL: {{^}}tail_libc:
; DEFAULT:         leaq -8(%rsp), %rsp
; DEFAULT:         callq puts@PLT
; DEFAULT:         leaq 8(%rsp), %rsp
; DEFAULT:         jmp __rsb_reset_depth # TAILCALL
define i32 @tail_libc(ptr %s) {
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
}

; CHECK-LABEL: {{^}}tail_pointer:
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmpq *%rdi # TAILCALL
; DEFAULT-LABEL: {{^}}tail_pointer:
; DEFAULT:         callq __rsb_reset_depth{{$}}
; DEFAULT-NEXT:    jmpq *%rdi # TAILCALL
define void @tail_pointer(ptr %fp) {
  tail call void %fp()
  ret void
}

; CHECK-LABEL: {{^}}cond_tail:
; CHECK:         testl %esi, %esi
; CHECK-NEXT:    leaq -128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset 128
; CHECK-NEXT:    callq __rsb_tail_account_flags{{$}}
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    je puts@PLT # TAILCALL
; DEFAULT-LABEL: {{^}}cond_tail:
; DEFAULT:         testl %esi, %esi
; DEFAULT-NEXT:    leaq -128(%rsp), %rsp
; DEFAULT-NEXT:    .cfi_adjust_cfa_offset 128
; DEFAULT-NEXT:    callq __rsb_tail_account_flags{{$}}
; DEFAULT-NEXT:    callq __rsb_reset_depth{{$}}
; DEFAULT-NEXT:    leaq 128(%rsp), %rsp
; DEFAULT-NEXT:    .cfi_adjust_cfa_offset -128
; DEFAULT-NEXT:    je puts@PLT # TAILCALL
define i32 @cond_tail(ptr %s, i32 %x) optsize {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
done:
  ret i32 0
}

; REMARK-DAG: remark: {{.*}}'calls' instrumented: 0 calls redirected, 1 returns lowered, 0 tail calls, 0 credit resets{{$}}
; REMARK-DAG: remark: {{.*}}'pad' instrumented: 2 calls redirected, 2 returns lowered, 0 tail calls, 0 credit resets{{$}}

; OBJ-LABEL: <tail_libc>:
; OBJ:         e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail_account-0x4
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 puts-0x4
