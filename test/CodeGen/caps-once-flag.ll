; A table entry unbounded in its first column but bounded once a once-flag
; of the library is set (`calloc unbounded unbounded 8@1da488`: glibc's
; allocator after its first call, docs/libc-depth.md) caps the credit like
; a depth of 8, through a record whose library string carries the flag's
; address after the build-id: the runtime vouches for it only if that byte
; is set (runtime/rsb_caps.c); a runtime that knows no once-flags sees
; another build and keeps the reset. A bounded first column wins over the
; fourth (valloc: 3); a flag of 0, a malformed or a flagless fourth column
; is no entry: the reset.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s

declare ptr @calloc(i64, i64)
declare ptr @valloc(i64)
declare ptr @realloc(ptr, i64)
declare ptr @aligned_alloc(i64, i64)
declare ptr @pvalloc(i64)

; CHECK-LABEL: {{^}}capped:
; CHECK:         callq calloc@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.calloc(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; CHECK:         callq valloc@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.valloc(%rip), %r10
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
define ptr @capped(i64 %n) {
  %a = call ptr @calloc(i64 %n, i64 8)
  %b = call ptr @valloc(i64 %n)
  call void asm sideeffect "", ""()
  ret ptr %a
}

; CHECK-LABEL: {{^}}reset:
; CHECK:         callq realloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq aligned_alloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq pvalloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
define ptr @reset(ptr %p, i64 %n) {
  %a = call ptr @realloc(ptr %p, i64 %n)
  %b = call ptr @aligned_alloc(i64 16, i64 %n)
  %c = call ptr @pvalloc(i64 %n)
  call void asm sideeffect "", ""()
  ret ptr %a
}

;; Two library strings: the build's with the flag, and the build's.
; CHECK:         .asciz "libc.so.6 00112233445566778899aabbccddeeff00112233 1da488"
; CHECK-LABEL: __rsb_cap.calloc:
; CHECK-NEXT:    .quad -9223372036854775808
; CHECK-NEXT:    .quad calloc
; CHECK-NEXT:    .quad __rsb_lib.libc.so.6.00112233445566778899aabbccddeeff00112233.1da488
; CHECK-NEXT:    .quad -16777216{{ }}
; CHECK-NEXT:    .quad __rsb_caps_check
; CHECK:         .asciz "libc.so.6 00112233445566778899aabbccddeeff00112233"
; CHECK-LABEL: __rsb_cap.valloc:
; CHECK-NEXT:    .quad -9223372036854775808
; CHECK-NEXT:    .quad valloc
; CHECK-NEXT:    .quad __rsb_lib.libc.so.6.00112233445566778899aabbccddeeff00112233{{$}}
; CHECK-NEXT:    .quad -1{{ }}
; CHECK-NOT:     __rsb_cap.realloc
; CHECK-NOT:     __rsb_cap.aligned_alloc
; CHECK-NOT:     __rsb_cap.pvalloc
