; Functions built with -mfunction-return=thunk-extern (the IR attribute
; fn_ret_thunk_extern) return through a user-provided __x86_return_thunk;
; rsb-stuff needs every return to go through its own thunk, and cannot know
; what the user's does. Such a function is an error naming the way out,
; never a silently uninstrumented one (it was skipped with only a remark).
; Left out on purpose it keeps its thunk, and calls to it stay plain with a
; credit reset after them.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-skip=rte \
; RUN:   %s -o - | FileCheck %s --implicit-check-not=__rsb_entry.rte \
; RUN:   --implicit-check-not=__rsb_tail.rte

; ERR: error: {{.*}}x86-rsb-stuff: 'rte' cannot be instrumented: its returns already go through __x86_return_thunk (-mfunction-return=thunk-extern); rsb-stuff needs them to go through its own return thunk; leave it out with RSB_NOSTUFF (rsb_stuff.h) or -x86-rsb-stuff-skip=rte

; CHECK:       .type rte,@function
; CHECK-NEXT:  rte:
; CHECK-NOT:     __rsb_
; CHECK:         jmp __x86_return_thunk # TAILCALL
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq rte@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return

define i32 @rte(i32 %x) noinline fn_ret_thunk_extern {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @caller(i32 %x) {
  %a = call i32 @rte(i32 %x)
  call void asm sideeffect "", ""()
  ret i32 %a
}
