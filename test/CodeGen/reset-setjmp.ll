; A returns_twice function (setjmp, sigsetjmp, vfork, ...) can return a
; second time, from a longjmp, with the calls and returns of the abandoned
; frames behind it that the counter never saw matched: right after every call
; to one, in an instrumented function, the credit is cleared with
; `callq __rsb_reset_depth`. The call itself stays uncounted (it returns with
; a plain `ret`), whatever its name.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s

declare i32 @setjmp(ptr) returns_twice
declare i32 @__sigsetjmp(ptr, i32) returns_twice nounwind
declare i32 @my_checkpoint(ptr) returns_twice
declare void @use(i32)

; CHECK-LABEL: {{^}}plain_setjmp:
; CHECK-NOT:     __rsb_entry.setjmp
; CHECK:         callq setjmp@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return # TAILCALL
define i32 @plain_setjmp(ptr %buf) {
  %r = call i32 @setjmp(ptr %buf)
  call void asm sideeffect "", ""()
  ret i32 %r
}

; CHECK-LABEL: {{^}}sig_setjmp:
; CHECK:         callq __sigsetjmp@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return # TAILCALL
define i32 @sig_setjmp(ptr %buf) {
  %r = call i32 @__sigsetjmp(ptr %buf, i32 1)
  call void asm sideeffect "", ""()
  ret i32 %r
}

;; Any returns_twice callee, whatever its name; its result (%eax) is used
;; after the reset, which preserves it.
; CHECK-LABEL: {{^}}own:
; CHECK-NOT:     __rsb_entry.my_checkpoint
; CHECK:         callq my_checkpoint@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    {{testl|cmpl}} {{.*}}%eax
; CHECK:         callq __rsb_entry.use@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
define void @own(ptr %buf) {
entry:
  %r = call i32 @my_checkpoint(ptr %buf)
  %c = icmp eq i32 %r, 0
  br i1 %c, label %first, label %again
first:
  call void @use(i32 1)
  ret void
again:
  call void @use(i32 %r)
  ret void
}

; OBJ-LABEL: <plain_setjmp>:
; OBJ:         R_X86_64_PLT32 setjmp-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
