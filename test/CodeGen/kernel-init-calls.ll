; Kernel mode accounts the calls the boot-time patcher never sees: objtool
; lists no call made from .init.text of vmlinux, so the pass sends those to
; `__rsb_init_thunk.f: <template>; jmp f` in .init.text.rsb_thunks (freed with
; .init.text). Calls from other sections stay `call f` for the patcher, which
; finds f's template already in place: no call is accounted twice.
; By default (-x86-rsb-stuff-kernel-init-calls=all) calls to other files'
; functions are accounted too, as the kernel's rule has every function return
; through the return thunk; callees of the same file that do not (plain
; returns, noinstr) are not, nor are calls that do not return (objtool must
; still see that the caller ends there) or the assembly the kernel itself
; never accounts. =local keeps to callees of the same file; =none (modules,
; whose .init.text calls objtool does list) leaves every call alone.

; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 %s -o %t.s
; RUN: FileCheck %s < %t.s
; RUN: FileCheck %s --check-prefix=THUNK < %t.s
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -x86-rsb-stuff-kernel-init-calls=local \
; RUN:   %s -o - | FileCheck %s --check-prefix=LOCAL
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -x86-rsb-stuff-kernel-init-calls=none \
; RUN:   %s -o - | FileCheck %s --check-prefix=OFF \
; RUN:   --implicit-check-not=__rsb_init_thunk
; RUN: %llc -mtriple=x86_64-linux-gnu -code-model=kernel -x86-rsb-stuff-kernel \
; RUN:   -x86-rsb-stuff-counter-offset=16 -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr -j .init.text.rsb_thunks %t.o \
; RUN:   | FileCheck %s --check-prefix=OBJ

; CHECK-LABEL: text_caller:
; CHECK:         callq callee{{$}}
; CHECK-LABEL: init_caller:
; CHECK:         callq __rsb_init_thunk.callee{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq __rsb_init_thunk.callee{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq noinstr_callee{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq plain_callee{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq __rsb_init_thunk.external{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq __rsb_init_thunk.weak_callee{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq error_entry{{$}}
; CHECK-NEXT:    movl %eax, %edi
; CHECK-NEXT:    callq __rsb_init_thunk.init_callee{{$}}
; CHECK:         callq noreturn_callee{{$}}
;; Each thunk once per output, whatever the number of calls.
; THUNK:         .section .init.text.rsb_thunks,"ax",@progbits
; THUNK-NEXT:    .p2align 4
; THUNK-NEXT:    .type __rsb_init_thunk.callee,@function
; THUNK-NEXT:  __rsb_init_thunk.callee:
; THUNK-NEXT:    sarq $5, %gs:pcpu_hot+16(%rip)
; THUNK-NEXT:    jmp callee
; THUNK-NOT:   __rsb_init_thunk.callee:

; LOCAL-LABEL: init_caller:
; LOCAL:         callq __rsb_init_thunk.callee{{$}}
; LOCAL:         callq external{{$}}
; LOCAL-NEXT:    movl %eax, %edi
; LOCAL-NEXT:    callq weak_callee{{$}}
; LOCAL:         callq __rsb_init_thunk.init_callee{{$}}

; OFF-LABEL: init_caller:
; OFF:         callq callee{{$}}
; OFF-NEXT:    movl %eax, %edi
; OFF-NEXT:    callq callee{{$}}

; OBJ-LABEL: <__rsb_init_thunk.init_callee>:
; OBJ-NEXT:    65 48 c1 3d 00 00 00 00 05 sarq $0x5, %gs:(%rip)
; OBJ-NEXT:      R_X86_64_PC32 pcpu_hot+0xb
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 .init.text+0xc

define dso_local i32 @callee(i32 %x) #0 {
  %r = add i32 %x, 1
  ret i32 %r
}

define dso_local i32 @noinstr_callee(i32 %x) #0 section ".noinstr.text" {
  ret i32 %x
}

define dso_local i32 @plain_callee(i32 %x) #1 {
  ret i32 %x
}

define weak dso_local i32 @weak_callee(i32 %x) #0 {
  ret i32 %x
}

declare dso_local i32 @external(i32) #0

declare dso_local i32 @error_entry(i32) #0

define internal i32 @init_callee(i32 %x) #0 section ".init.text" {
  ret i32 %x
}

define dso_local i32 @text_caller(i32 %x) #0 {
  %r = call i32 @callee(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

define dso_local i32 @init_caller(i32 %x) #0 section ".init.text" {
  %a = call i32 @callee(i32 %x)
  %b = call i32 @callee(i32 %a)
  %c = call i32 @noinstr_callee(i32 %b)
  %d = call i32 @plain_callee(i32 %c)
  %e = call i32 @external(i32 %d)
  %f0 = call i32 @weak_callee(i32 %e)
  %f = call i32 @error_entry(i32 %f0)
  %g = call i32 @init_callee(i32 %f)
  %h = add i32 %g, 1
  %z = icmp eq i32 %h, 0
  br i1 %z, label %dead, label %done
dead:
  call void @noreturn_callee()
  unreachable
done:
  ret i32 %h
}

define dso_local void @noreturn_callee() #2 {
  call void @noreturn_callee()
  unreachable
}

attributes #0 = { fn_ret_thunk_extern nounwind noinline "patchable-function-prefix"="16" }
attributes #1 = { nounwind noinline "patchable-function-prefix"="16" }
attributes #2 = { fn_ret_thunk_extern noreturn nounwind noinline "patchable-function-prefix"="16" }
