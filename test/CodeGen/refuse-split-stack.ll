; -fsplit-stack: when the stack segment is full, the prologue's `call
; __morestack` makes __morestack run the function's body at that call's
; return address + 1, on a new stack, and come back to the `ret` right after
; the call, which returns from the function: the body's return, __morestack's
; own and that `ret` take more RSB entries than the calls the counter sees
; (a reset before the call leaves the credit above the entries left after
; the refill at the body's return). So such a function is an error naming
; the way out, never an uninstrumented or wrongly accounted one; left out on
; purpose it keeps its prologue untouched, with a remark.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-skip=big_frame \
; RUN:   %s -o - | FileCheck %s --implicit-check-not=__rsb_entry.big_frame \
; RUN:   --implicit-check-not=__rsb_reset_depth --implicit-check-not=shlq

; ERR: error: {{.*}}x86-rsb-stuff: 'big_frame' cannot be instrumented: it has a split stack (-fsplit-stack): __morestack runs its body at a return address it computes and comes back through plain returns the counter cannot see; leave it out with RSB_NOSTUFF (rsb_stuff.h) or -x86-rsb-stuff-skip=big_frame

; CHECK-LABEL: big_frame:
; CHECK:         callq __morestack
; CHECK-NEXT:    retq

declare void @use(ptr)

define void @big_frame() "split-stack" {
  %frame = alloca [4096 x i8]
  call void @use(ptr %frame)
  ret void
}
