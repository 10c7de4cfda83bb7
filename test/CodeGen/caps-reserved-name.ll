; A C library function that LLVM's library information does not know but
; whose name is reserved for the implementation (two leading underscores)
; and bounded in the depth table (`__errno_location`, what `errno` calls) is
; called as a library function: uncounted, then capped through its record,
; instead of through an entry that the link backs with a resetting
; fallback. An unbounded reserved name, a name without the underscores and
; any call without a table keep the entry.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=NOTABLE

declare ptr @__errno_location()
declare i32 @__libc_deep()
declare i32 @errno_location()

define i32 @get_errno() {
; CHECK-LABEL: get_errno:
; CHECK:         callq __errno_location@PLT
; CHECK-NEXT:    movq __rsb_cap.__errno_location(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; NOTABLE-LABEL: get_errno:
; NOTABLE:       callq __rsb_entry.__errno_location@PLT
  %p = call ptr @__errno_location()
  %v = load i32, ptr %p
  ret i32 %v
}

define i32 @call_deep() {
; CHECK-LABEL: call_deep:
; CHECK:         callq __rsb_entry.__libc_deep@PLT
; CHECK-NOT:     __rsb_cap
; CHECK:         .Lfunc_end
  %v = call i32 @__libc_deep()
  %w = add i32 %v, 1
  ret i32 %w
}

define i32 @call_unreserved() {
; CHECK-LABEL: call_unreserved:
; CHECK:         callq __rsb_entry.errno_location@PLT
; CHECK-NOT:     __rsb_cap
; CHECK:         .Lfunc_end
  %v = call i32 @errno_location()
  %w = add i32 %v, 1
  ret i32 %w
}

; CHECK:      __rsb_cap.__errno_location:
; CHECK-NEXT: .quad -9223372036854775808
; CHECK-NEXT: .quad __errno_location
; CHECK-NOT:  __rsb_cap.__libc_deep
