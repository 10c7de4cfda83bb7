; A C library function that LLVM's library information does not know but
; that the depth table bounds is called as a library function: uncounted,
; then capped through its record, instead of through an entry that the link
; backs with a resetting fallback. So for a name reserved for the
; implementation (`__errno_location`, what `errno` calls) and for one that
; is not (`localeconv`): the runtime arms the record only if the callee is
; the C library's own definition, so a same-named function of the program
; is reset after, never capped (test/e2e/caps-own-definition.test). An
; unbounded name is not capped but is still a C library function, called
; plainly and reset after (never through an entry, whose fallback would put
; a frame of its own between it and its caller); any call without a table
; keeps the entry.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=NOTABLE

declare ptr @__errno_location()
declare i32 @__libc_deep()
declare ptr @localeconv()

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
; CHECK:         callq __libc_deep@PLT
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NOT:     __rsb_cap
; CHECK:         .Lfunc_end
  %v = call i32 @__libc_deep()
  %w = add i32 %v, 1
  ret i32 %w
}

define i8 @decimal_point() {
; CHECK-LABEL: decimal_point:
; CHECK:         callq localeconv@PLT
; CHECK-NEXT:    movq __rsb_cap.localeconv(%rip), %r10
; CHECK-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; NOTABLE-LABEL: decimal_point:
; NOTABLE:       callq __rsb_entry.localeconv@PLT
  %l = call ptr @localeconv()
  %p = load ptr, ptr %l
  %c = load i8, ptr %p
  ret i8 %c
}

; CHECK:      __rsb_cap.__errno_location:
; CHECK-NEXT: .quad -9223372036854775808
; CHECK-NEXT: .quad __errno_location
; CHECK-NOT:  __rsb_cap.__libc_deep
; CHECK:      __rsb_cap.localeconv:
; CHECK-NEXT: .quad -9223372036854775808
; CHECK-NEXT: .quad localeconv
