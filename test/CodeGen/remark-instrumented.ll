; -pass-remarks=x86-rsb-stuff reports each instrumented function with its
; counts of redirected calls, lowered returns, handled tail calls and credit
; resets (here the one after the call to the naked, uninstrumented `bare`;
; the tail call to ext goes to its tail alias and needs none); skipped
; functions produce only the missed remark, and nothing is reported without
; the remark options.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks=x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=remark:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -pass-remarks-missed=x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSED --implicit-check-not=remark:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | count 0
; RUN: %clang_rsb -target x86_64-linux-gnu -O0 -fno-pic -Wno-override-module \
; RUN:   -Rpass=x86-rsb-stuff -c -x ir %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=remark:

;; In the module's order, as the code generator reaches the functions:
;; with -DAG, FileCheck would not apply --implicit-check-not=remark:
;; between or after the matched remarks.
; CHECK:     remark: {{.*}}'leaf' instrumented: 0 calls redirected, 1 returns lowered, 0 tail calls, 0 credit resets{{$| \[}}
; CHECK:     remark: {{.*}}'three' instrumented: 3 calls redirected, 2 returns lowered, 0 tail calls, 1 credit resets{{$| \[}}
; CHECK:     remark: {{.*}}'tails' instrumented: 1 calls redirected, 0 returns lowered, 1 tail calls, 0 credit resets{{$| \[}}

; MISSED: remark: {{.*}}'bare' not instrumented: naked function

declare void @ext()

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @bare() naked noinline {
  call void asm sideeffect "retq", ""()
  unreachable
}

define i32 @three(i32 %x) {
entry:
  call void @leaf()
  call void @ext()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  call void @leaf()
  call void asm sideeffect "", ""()
  ret i32 1
b:
  call void @bare()
  call void asm sideeffect "", ""()
  ret i32 2
}

define void @tails() {
  call void @ext()
  tail call void @ext()
  ret void
}
