; Kernel mode leaves a function alone, with a remark, when a template would
; break something: its returns do not go through the kernel's return thunk
; (a counted call would end in a plain ret: over-count), it is noinstr or
; entry code, its padding is too small, or it is naked. Its padding keeps all
; its NOPs, for the boot-time patcher to handle as in a stock kernel.

; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -pass-remarks-missed=x86-rsb-stuff \
; RUN:   %s -o - 2>%t.remarks | FileCheck %s --implicit-check-not=sarq \
; RUN:   --implicit-check-not=__pfx_ --implicit-check-not=__rsb_entry
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

; REMARK-DAG: remark: {{.*}}'plain_ret' not instrumented: returns do not go through the kernel's return thunk (-mfunction-return=thunk-extern)
; REMARK-DAG: remark: {{.*}}'noinstr' not instrumented: noinstr code must not be touched
; REMARK-DAG: remark: {{.*}}'entry' not instrumented: noinstr code must not be touched
; REMARK-DAG: remark: {{.*}}'head' not instrumented: noinstr code must not be touched
; REMARK-DAG: remark: {{.*}}'small_padding' not instrumented: its -fpatchable-function-entry padding cannot hold the template
; REMARK-DAG: remark: {{.*}}'no_padding' not instrumented: its -fpatchable-function-entry padding cannot hold the template
; REMARK-DAG: remark: {{.*}}'naked' not instrumented: naked function
; REMARK-DAG: remark: {{.*}}'opted_out' not instrumented: marked rsb_nostuff

; CHECK-LABEL: plain_ret:
; CHECK:         retq
; CHECK-LABEL: .Ltmp1:
; CHECK-COUNT-16: nop
; CHECK-NEXT:  noinstr:

@str = private constant [12 x i8] c"rsb_nostuff\00", section "llvm.metadata"
@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } { ptr @opted_out, ptr @str, ptr null, i32 0, ptr null }], section "llvm.metadata"

define i32 @plain_ret(i32 %x) #1 {
  ret i32 %x
}

define i32 @noinstr(i32 %x) #0 section ".noinstr.text" {
  ret i32 %x
}

define i32 @entry(i32 %x) #0 section ".entry.text" {
  ret i32 %x
}

define i32 @head(i32 %x) #0 section ".head.text" {
  ret i32 %x
}

define i32 @small_padding(i32 %x) #2 {
  ret i32 %x
}

define i32 @no_padding(i32 %x) #3 {
  ret i32 %x
}

define void @naked() #4 {
  call void asm sideeffect "ret", ""()
  unreachable
}

define i32 @opted_out(i32 %x) #0 {
  ret i32 %x
}

attributes #0 = { fn_ret_thunk_extern nounwind "patchable-function-prefix"="16" }
attributes #1 = { nounwind "patchable-function-prefix"="16" }
attributes #2 = { fn_ret_thunk_extern nounwind "patchable-function-prefix"="8" }
attributes #3 = { fn_ret_thunk_extern nounwind }
attributes #4 = { fn_ret_thunk_extern naked nounwind "patchable-function-prefix"="16" }
