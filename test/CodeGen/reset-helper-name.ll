; -x86-rsb-stuff-reset-helper=<name> renames the helper that clears the
; credit, everywhere it is called: after an uncounted call, at a landing pad
; and before a tail call to a plain target. Nothing refers to the default
; __rsb_reset_depth then. The tail accounting helper keeps its own name.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-reset-helper=my_reset %s -o - \
; RUN:   | FileCheck %s --implicit-check-not=__rsb_reset_depth
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-reset-helper=my_reset -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ \
; RUN:   --implicit-check-not=__rsb_reset_depth
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-reset-helper=my_reset \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --implicit-check-not=__rsb_reset_depth

declare i32 @printf(ptr, ...)
declare i32 @puts(ptr)
declare i64 @strlen(ptr)
declare void @may_throw()
declare void @handle(ptr)
declare i32 @__gxx_personality_v0(...)

; CHECK-LABEL: {{^}}after_call:
; CHECK:         callq printf@PLT{{$}}
; CHECK-NEXT:    callq my_reset{{$}}
define void @after_call(ptr %fmt) {
  %p = call i32 (ptr, ...) @printf(ptr %fmt)
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}pad:
; CHECK:       .LBB1_[[#]]: # %lpad
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    callq my_reset{{$}}
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

; CHECK-LABEL: {{^}}tail:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq puts@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp my_reset # TAILCALL
define i32 @tail(ptr %s) {
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
}

; CHECK-LABEL: {{^}}tail_leaf:
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp strlen@PLT # TAILCALL
define i64 @tail_leaf(ptr %s) {
  %r = tail call i64 @strlen(ptr %s)
  ret i64 %r
}

; OBJ-LABEL: <after_call>:
; OBJ:         R_X86_64_PLT32 printf-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 my_reset-0x4
