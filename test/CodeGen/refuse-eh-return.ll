; A function that calls llvm.eh.return.* (__builtin_eh_return, as in
; libgcc's unwinder) ends in EH_RETURN64, a `ret` to a computed address with
; a computed stack pointer that the return thunk cannot perform. Such a
; function is an error naming the way out, never a silently uninstrumented
; one; left out on purpose it keeps its `ret` with a remark, and calls to it
; stay plain with a credit reset after them.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
; RUN: not %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic \
; RUN:   -Wno-override-module -c -x ir %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-skip=unwinder \
; RUN:   %s -o - | FileCheck %s --implicit-check-not=__rsb_entry.unwinder

; ERR: error: {{.*}}x86-rsb-stuff: 'unwinder' cannot be instrumented: it returns through __builtin_eh_return, which the return thunk cannot account; leave it out with RSB_NOSTUFF (rsb_stuff.h) or -x86-rsb-stuff-skip=unwinder

; CHECK:       .type unwinder,@function
; CHECK-NEXT:  unwinder:
; CHECK-NOT:     __rsb
; CHECK:         retq # eh_return, addr: %rcx
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq unwinder@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return # TAILCALL

declare void @llvm.eh.return.i64(i64, ptr)

define void @unwinder(i64 %off, ptr %handler) noinline {
  call void @llvm.eh.return.i64(i64 %off, ptr %handler)
  unreachable
}

define void @caller(i64 %off, ptr %handler) {
  call void @unwinder(i64 %off, ptr %handler)
  call void asm sideeffect "", ""()
  ret void
}
