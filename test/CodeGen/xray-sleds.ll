; XRay's sleds stay as XRay lays them out (its runtime patches and restores
; them by address), and the credit is cleared around them: after the entry
; sled, before the exit sled's `retq` (XRay's trampoline returns with a
; plain `ret` when it is patched, the sled's own `retq` when it is not),
; which __rsb_tail_account accounts first (a reset alone let recursion
; underflow: each plain `retq` spent an entry nobody checked),
; before a tail-call sled, and after a custom event sled's call. A patched
; sled runs handlers the counter cannot see; a cleared credit also covers
; the plain `ret` that ends the counted call. The functions keep their
; prefixes, and tail calls their usual handling. (They were all skipped,
; with only a remark.)

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
;; Without the plugin's option the same sleds are there.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF-LABEL: {{^}}traced:
; OFF:       .Lxray_sled_0:
; OFF-NEXT:    .ascii "\353\t"
; OFF:       .Lxray_sled_1:
; OFF-NEXT:    retq

; CHECK-LABEL: __rsb_entry.traced:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-LABEL: {{^}}traced:
; CHECK:       .Lxray_sled_0:
; CHECK-NEXT:    .ascii "\353\t"
; CHECK-NEXT:    nopw 512(%rax,%rax)
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         leal (%rdi,%rdi,2), %eax
; CHECK-NEXT:    callq __rsb_tail_account{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    .p2align 1
; CHECK-NEXT:  .Lxray_sled_1:
; CHECK-NEXT:    retq
; CHECK-NEXT:    nopw %cs:512(%rax,%rax)
; CHECK-NOT:     {{__rsb_return_thunk|__rsb_refill_return}}
; CHECK:       .Lfunc_end0:

; A tail call to an external function: a reset before its sled, then the
; tail alias as usual.
; CHECK-LABEL: {{^}}tail_ext:
; CHECK:       .Lxray_sled_2:
; CHECK-NEXT:    .ascii "\353\t"
; CHECK-NEXT:    nopw 512(%rax,%rax)
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    .p2align 1
; CHECK-NEXT:  .Lxray_sled_3:
; CHECK-NEXT:    .ascii "\353\t"
; CHECK-NEXT:    nopw 512(%rax,%rax)
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    jmp __rsb_tail.ext@PLT # TAILCALL

; A custom event sled is a call without a target: reset after it.
; CHECK-LABEL: {{^}}event:
; CHECK:         callq __xray_CustomEvent
; CHECK-NEXT:    popq %rsi
; CHECK-NEXT:    nop
; CHECK-NEXT:    callq __rsb_reset_depth

; Calls to them are counted.
; CHECK-LABEL: {{^}}caller:
; CHECK:         callq __rsb_entry.traced
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL

declare i32 @ext(i32)
declare void @llvm.xray.customevent(ptr, i64)

define i32 @traced(i32 %x) noinline "function-instrument"="xray-always" {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @tail_ext(i32 %x) "function-instrument"="xray-always" {
  %r = tail call i32 @ext(i32 %x)
  ret i32 %r
}

define void @event(ptr %p) "function-instrument"="xray-always" {
  call void @llvm.xray.customevent(ptr %p, i64 8)
  ret void
}

define i32 @caller(i32 %x) {
  %r = call i32 @traced(i32 %x)
  call void asm sideeffect "", ""()
  ret i32 %r
}
