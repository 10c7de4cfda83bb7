; Only a call that passes every argument in a register goes through
; `__rsb_entry.f` or `__rsb_tail.f` by name: when f is not instrumented,
; rsb-ld's fallback calls it from a frame of its own, 16 bytes lower, where
; stack arguments would not be where f looks for them. Any call of f in the
; module that may pass one on the stack (a seventh integer-class or ninth
; SSE-class argument, byval, x86_fp80, an i128 that no longer fits, a
; first-class aggregate, a wide vector, another convention; varargs by the
; call's own arguments) leaves every call of f uncounted and reset after,
; and tail calls plain with a reset before.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -stats %s -o /dev/null \
; RUN:   2>&1 | FileCheck %s --check-prefix=STATS
; The calls of @stack left plain by the rule (12: all but dlsym and
; dlopen, which are library functions), tail_stack's and forward's tail
; calls.
; STATS: 14 x86-rsb-stuff - Calls and tail calls by name left plain: a call of the callee passes stack arguments

declare i64 @six(i64, i64, i64, i64, i64, i64)
declare i64 @seven(i64, i64, i64, i64, i64, i64, i64)
declare double @eight_sse(double, double, double, double, double, double, double, double)
declare double @nine_sse(double, double, double, double, double, double, double, double, double)
declare void @by_value(ptr byval([4 x i64]))
declare void @long_double(x86_fp80)
declare void @i128_fits(i64, i64, i64, i64, i128)
declare void @i128_split(i64, i64, i64, i64, i64, i128)
declare void @aggregate({ i64, i64 })
declare void @wide_vector(<8 x float>)
declare void @vector(<4 x float>)
declare void @mixed(i64, i64, i64, i64, i64, i64, double, double, double, double, double, double, double, double)
declare i64 @vararg(i64, ...)
declare i64 @vararg_many(i64, ...)
declare i64 @mismatched(i64)
declare x86_fp80 @returns_long_double(i64)
declare { i64, i64, i64 } @returns_aggregate(i64, i64, i64, i64, i64, i64)
declare preserve_mostcc void @other_convention(i64)
declare ptr @dlsym(ptr, ptr)
declare i64 @forwarded(i64, ...)
declare ptr @dlopen(ptr, i32)

; CHECK-LABEL: {{^}}registers:
; CHECK: callq __rsb_entry.six{{(@PLT)?$}}
; CHECK: callq __rsb_entry.eight_sse{{(@PLT)?$}}
; CHECK: callq __rsb_entry.i128_fits{{(@PLT)?$}}
; CHECK: callq __rsb_entry.vector{{(@PLT)?$}}
; CHECK: callq __rsb_entry.mixed{{(@PLT)?$}}
; CHECK: callq __rsb_entry.vararg{{(@PLT)?$}}
; CHECK: callq __rsb_entry.returns_long_double{{(@PLT)?$}}
define i64 @registers() nounwind {
  %a = call i64 @six(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6)
  %b = call double @eight_sse(double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, double 8.0)
  call void @i128_fits(i64 1, i64 2, i64 3, i64 4, i128 5)
  call void @vector(<4 x float> zeroinitializer)
  call void @mixed(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, double 8.0)
  %c = call i64 (i64, ...) @vararg(i64 1, i64 2, double 3.0)
  %d = call x86_fp80 @returns_long_double(i64 1)
  ret i64 %a
}

; CHECK-LABEL: {{^}}stack:
; CHECK-NOT: __rsb_entry
; CHECK: callq seven{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq nine_sse{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq by_value{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq long_double{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq i128_split{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq aggregate{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq wide_vector{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq vararg_many{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq mismatched{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq returns_aggregate{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq other_convention{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; dlsym and dlopen read their return address (RTLD_NEXT): never through a
; fallback frame, even without a depth table (this llc has none).
; CHECK: callq dlsym{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: callq dlopen{{(@PLT)?$}}
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK: retq
define void @stack(ptr %p) nounwind {
  %a = call i64 @seven(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7)
  %b = call double @nine_sse(double 1.0, double 2.0, double 3.0, double 4.0, double 5.0, double 6.0, double 7.0, double 8.0, double 9.0)
  call void @by_value(ptr byval([4 x i64]) %p)
  call void @long_double(x86_fp80 0xK3FFF8000000000000000)
  call void @i128_split(i64 1, i64 2, i64 3, i64 4, i64 5, i128 6)
  call void @aggregate({ i64, i64 } zeroinitializer)
  call void @wide_vector(<8 x float> zeroinitializer)
  %c = call i64 (i64, ...) @vararg_many(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7)
  ; One call in registers, one through a prototype with stack arguments.
  %d = call i64 @mismatched(i64 1)
  %e = call i64 @mismatched(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6, i64 7)
  %f = call { i64, i64, i64 } @returns_aggregate(i64 1, i64 2, i64 3, i64 4, i64 5, i64 6)
  call preserve_mostcc void @other_convention(i64 1)
  %g = call ptr @dlsym(ptr null, ptr null)
  %h = call ptr @dlopen(ptr null, i32 1)
  ret void
}

; Tail calls: by name only with every argument in a register.
; CHECK-LABEL: {{^}}tail_registers:
; CHECK: jmp __rsb_tail.six{{(@PLT)?}} # TAILCALL
define i64 @tail_registers(i64 %a) nounwind {
  %r = tail call i64 @six(i64 %a, i64 2, i64 3, i64 4, i64 5, i64 6)
  ret i64 %r
}

; CHECK-LABEL: {{^}}tail_stack:
; CHECK-NOT: __rsb_tail.
; CHECK: callq __rsb_tail_account
; CHECK-NEXT: callq __rsb_reset_depth
; CHECK-NEXT: jmp seven{{(@PLT)?}} # TAILCALL
define i64 @tail_stack(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g) nounwind {
  %r = tail call i64 @seven(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g)
  ret i64 %r
}

; A variadic function's musttail call forwards its own variadic arguments,
; which may be on the stack: plain.
; CHECK-LABEL: {{^}}forward:
; CHECK-NOT: __rsb_tail.
; CHECK: jmp forwarded{{(@PLT)?}} # TAILCALL
define i64 @forward(i64 %a, ...) nounwind {
  %r = musttail call i64 (i64, ...) @forwarded(i64 %a, ...)
  ret i64 %r
}
