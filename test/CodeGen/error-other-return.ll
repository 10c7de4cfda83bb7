; An instrumented function whose code contains a return other than a plain
; `ret` is a hard error, never a silent skip (docs/design.md, "Returns and
; tail calls"): __builtin_eh_return (EH_RETURN64) and XRay's patchable
; return sleds (PATCHABLE_RET) cannot go through the return thunk. The error
; names the function and the return kind; llc and clang exit non-zero
; without crashing.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not="Stack dump" \
; RUN:     --implicit-check-not="PLEASE submit" \
; RUN:     --implicit-check-not="in function plain"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="Stack dump"
; RUN: not %clang_rsb -target x86_64-linux-gnu -O2 -Wno-override-module \
; RUN:   -c -x ir %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not="Stack dump"
;; Without the plugin's option both compile.
; RUN: %llc -mtriple=x86_64-linux-gnu %s -o /dev/null

; CHECK-DAG: error: {{.*}}in function unwinder {{.*}}: x86-rsb-stuff: cannot route return 'EH_RETURN64' through the return thunk
; CHECK-DAG: error: {{.*}}in function traced {{.*}}: x86-rsb-stuff: cannot route return 'PATCHABLE_RET' through the return thunk
;; A function with plain returns next to them is not reported (see the
;; implicit check in the first RUN line).

declare void @llvm.eh.return.i64(i64, ptr)

define void @unwinder(i64 %off, ptr %handler) noinline {
  call void @llvm.eh.return.i64(i64 %off, ptr %handler)
  unreachable
}

define i32 @traced(i32 %x) noinline "function-instrument"="xray-always" {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @plain(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}
