; A returns_twice function that the depth table bounds (`__sigsetjmp`,
; what `sigsetjmp` calls; `vfork`; `getcontext`) gets no cap record: its
; second return comes from a `longjmp` (or the vfork child's exit) with the
; abandoned frames' calls behind it, which a cap, bounding only what the
; callee itself pushes, does not cover. The call is followed by the reset,
; as without a table, whether the declaration or only the call carries the
; attribute.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s

declare i32 @__sigsetjmp(ptr, i32) returns_twice
declare i32 @vfork() returns_twice
declare i32 @getcontext(ptr)
declare void @use(i32)

define void @call_sigsetjmp(ptr %buf) {
; CHECK-LABEL: call_sigsetjmp:
; CHECK:         callq __sigsetjmp@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
  %r = call i32 @__sigsetjmp(ptr %buf, i32 1)
  call void @use(i32 %r)
  ret void
}

define void @call_vfork() {
; CHECK-LABEL: call_vfork:
; CHECK:         callq vfork@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
  %r = call i32 @vfork()
  call void @use(i32 %r)
  ret void
}

define void @call_getcontext(ptr %ctx) {
; CHECK-LABEL: call_getcontext:
; CHECK:         callq getcontext@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
  %r = call i32 @getcontext(ptr %ctx) returns_twice
  call void @use(i32 %r)
  ret void
}

; CHECK-NOT: __rsb_cap.
