; llc -filetype=null (and clang's -emit-codegen-only, the same null
; streamer) runs the whole code generator and discards the output: the plugin
; registers a target streamer for it too, so instrumented functions go
; through the pass and the prefix emission as usual.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=null %s \
; RUN:   -o %t.null 2>&1 | count 0
; RUN: count 0 < %t.null
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=null \
; RUN:   -pass-remarks=x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=remark: --implicit-check-not=error:
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=null \
; RUN:   -relocation-model=pic -x86-rsb-stuff-stats %s -o /dev/null 2>&1 \
; RUN:   | count 0
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -Xclang -emit-codegen-only -Rpass=x86-rsb-stuff -c -x ir %s \
; RUN:   -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --implicit-check-not=remark: --implicit-check-not=error:

;; In the module's order, as the code generator reaches the functions:
;; with -DAG, FileCheck would not apply the --implicit-check-not patterns
;; between or after the matched remarks.
; CHECK:     remark: {{.*}}'leaf' instrumented: 0 calls redirected, 1 returns lowered, 0 tail calls, 0 credit resets
; CHECK:     remark: {{.*}}'f' instrumented: 2 calls redirected, 1 returns lowered, 0 tail calls, 1 credit resets

declare void @ext()

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @f(ptr %fp) {
  call void @leaf()
  call void @ext()
  call void %fp()
  call void asm sideeffect "", ""()
  ret void
}
