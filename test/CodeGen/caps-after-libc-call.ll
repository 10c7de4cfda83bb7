; A call into the C library whose depth the table bounds (utils/libc-depth,
; -x86-rsb-stuff-libc-depths) caps the credit instead of clearing it: the
; module gets a record __rsb_cap.f (section rsb_caps) whose first word
; starts as the reset (RSB_DEPTH_INIT) and which the runtime sets to the
; capped mask (fourth word) once it has checked the library at start-up
; (runtime/rsb_caps.c, which the last word links in). After the call: load
; the mask into %r10, `and` it into the counter. Unbounded, too deep (depth + 1 >= 16), exported by two
; libraries, or only a non-default version bounded: the reset as before.
; memcpy and its family stay without anything (the code generator calls
; them on its own).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,LE
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,IE
;; Without a table: the hand list of leaves (strlen) as before, a reset
;; after the rest.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=NOTABLE

; NOTABLE-NOT: __rsb_cap
; NOTABLE-NOT: rsb_caps

declare i64 @strlen(ptr)
declare i32 @strcoll(ptr, ptr)
declare i32 @atoi(ptr)
declare void @free(ptr)
declare i64 @strtol(ptr, ptr, i32)
declare i64 @strtoul(ptr, ptr, i32)
declare ptr @malloc(i64)
declare i64 @atol(ptr)
declare ptr @realpath(ptr, ptr)
declare ptr @memcpy(ptr, ptr, i64)

; CHECK-LABEL: {{^}}bounded:
; CHECK:         callq strlen@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.strlen(%rip), %r10
; LE-NEXT:       andq %r10, %fs:__rsb_depth@TPOFF
; IE-NEXT:       movq __rsb_depth@GOTTPOFF(%rip), %r11
; IE-NEXT:       andq %r10, %fs:(%r11)
; CHECK:         callq strcoll@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.strcoll(%rip), %r10
; CHECK:         callq atoi@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.atoi(%rip), %r10
; CHECK:         callq free@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.free(%rip), %r10
; CHECK:         callq strtol@PLT{{$}}
; CHECK-NEXT:    movq __rsb_cap.strtol(%rip), %r10
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
; NOTABLE-LABEL: {{^}}bounded:
; NOTABLE:       callq strlen@PLT{{$}}
; NOTABLE-NOT:   __rsb_reset_depth
; NOTABLE:       callq strcoll@PLT{{$}}
; NOTABLE-NEXT:  callq __rsb_reset_depth{{$}}
define i64 @bounded(ptr %s, ptr %t) {
  %l = call i64 @strlen(ptr %s)
  %c = call i32 @strcoll(ptr %s, ptr %t)
  %a = call i32 @atoi(ptr %s)
  call void @free(ptr %t)
  %n = call i64 @strtol(ptr %s, ptr null, i32 10)
  call void asm sideeffect "", ""()
  %r = add i64 %l, %n
  ret i64 %r
}

; CHECK-LABEL: {{^}}unbounded:
; CHECK:         callq strtoul@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq malloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq atol@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq realpath@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_cap
; CHECK:         callq memcpy@PLT{{$}}
; CHECK-NOT:     __rsb_
; CHECK:         {{movq __rsb_depth@GOTTPOFF\(%rip\), %r11|shlq \$5, %fs:__rsb_depth@TPOFF}}
; CHECK:         je __rsb_refill_return # TAILCALL
define ptr @unbounded(ptr %s) {
  %u = call i64 @strtoul(ptr %s, ptr null, i32 10)
  %m = call ptr @malloc(i64 %u)
  %a = call i64 @atol(ptr %s)
  %p = call ptr @realpath(ptr %s, ptr %m)
  call void asm sideeffect "", ""()
  %c = call ptr @memcpy(ptr %m, ptr %s, i64 %a)
  call void asm sideeffect "", ""()
  ret ptr %m
}

;; The records: reset first, the capped mask last. Depth d leaves 15 - d
;; RSB entries; a mask of 5 * (that + 1) leading ones keeps at most that
;; many returns of credit, and a full credit (12) needs no cap at all.
; CHECK-LABEL: __rsb_lib.libc.so.6.00112233445566778899aabbccddeeff00112233:
; CHECK-NEXT:    .asciz "libc.so.6 00112233445566778899aabbccddeeff00112233"
; CHECK:         .section rsb_caps,"awG",@progbits,__rsb_cap.strlen,comdat
; CHECK-LABEL: __rsb_cap.strlen:
; CHECK-NEXT:    .quad -9223372036854775808
; CHECK-NEXT:    .quad strlen
; CHECK-NEXT:    .quad __rsb_lib.libc.so.6.00112233445566778899aabbccddeeff00112233
; CHECK-NEXT:    .quad -1
; CHECK-NEXT:    .quad __rsb_caps_check
; CHECK-LABEL: __rsb_cap.strcoll:
; CHECK:         .quad -1
; CHECK-LABEL: __rsb_cap.atoi:
; CHECK-NEXT:    .quad -9223372036854775808
; CHECK-NEXT:    .quad atoi
; CHECK-NEXT:    .quad __rsb_lib.libc.so.6
; CHECK-NEXT:    .quad -16{{ }}
; CHECK-LABEL: __rsb_cap.free:
; CHECK:         .quad -16777216{{ }}
; CHECK-LABEL: __rsb_cap.strtol:
; CHECK:         .quad -18014398509481984{{ }}
