; Tail calls. The caller's caller counted a call; the tail-called code's
; return must account for it:
;  - an instrumented callee bound in this module (static, or a dso_local
;    strong definition) returns through the thunk itself: `jmp f` is kept
;    (no second count: f is entered after its prefix);
;  - an external callee, a preemptible (not dso_local) definition and an ODR
;    (linkonce_odr / weak_odr, COMDAT) definition, dso_local or not, are
;    reached by name through the tail alias __rsb_tail.f (@PLT where the jump
;    had it), which is f when the copy the linker keeps is instrumented and a
;    fallback that clears the credit otherwise;
;  - anything that may return with a plain `ret` (libc, a function pointer,
;    weak or extern_weak callees, skipped functions) gets
;    `callq __rsb_tail_account`, which accounts that plain `ret`, and
;    `callq __rsb_reset_depth` right before the jump: the callee's own calls
;    are invisible too;
;  - a known leaf (memcpy, strlen, ...) only needs its `ret` accounted:
;    `callq __rsb_tail_account` alone (tail-call-reset.ll has more).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s
;; Different helper names.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-tail-account=my_account \
; RUN:   -x86-rsb-stuff-reset-helper=my_reset %s -o - \
; RUN:   | FileCheck %s --check-prefix=RENAMED \
; RUN:     --implicit-check-not=__rsb_tail_account \
; RUN:     --implicit-check-not=__rsb_reset_depth

declare i32 @ext(i32)
declare i32 @puts(ptr)
declare i64 @strlen(ptr)
declare extern_weak i32 @ext_weak(i32)

define internal i32 @leaf(i32 %x) noinline {
  %r = mul i32 %x, 3
  ret i32 %r
}

define dso_local i32 @local_def(i32 %x) noinline {
  %r = mul i32 %x, 5
  ret i32 %r
}

define i32 @preemptible_def(i32 %x) noinline {
  %r = mul i32 %x, 11
  ret i32 %r
}

define linkonce_odr i32 @odr_def(i32 %x) noinline {
  %r = mul i32 %x, 13
  ret i32 %r
}

define weak_odr dso_local i32 @odr_local_def(i32 %x) noinline {
  %r = mul i32 %x, 17
  ret i32 %r
}

define weak i32 @weak_def(i32 %x) noinline {
  %r = mul i32 %x, 7
  ret i32 %r
}

define i32 @naked_fn(i32 %x) naked noinline {
  call void asm sideeffect "ret", ""()
  unreachable
}

; CHECK-LABEL: {{^}}to_static:
; CHECK-NOT:     __rsb_tail
; CHECK:         jmp leaf # TAILCALL
define i32 @to_static(i32 %x) {
  %r = tail call i32 @leaf(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_dso_local:
; CHECK-NOT:     __rsb_tail
; CHECK:         jmp {{local_def|\.Llocal_def\$local}} # TAILCALL
define i32 @to_dso_local(i32 %x) {
  %r = tail call i32 @local_def(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_external:
; CHECK-NOT:     __rsb_tail_account
; CHECK:         jmp __rsb_tail.ext@PLT # TAILCALL
define i32 @to_external(i32 %x) {
  %r = tail call i32 @ext(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_preemptible:
; CHECK-NOT:     __rsb_tail_account
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         jmp __rsb_tail.preemptible_def@PLT # TAILCALL
define i32 @to_preemptible(i32 %x) {
  %r = tail call i32 @preemptible_def(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_odr:
; CHECK-NOT:     __rsb_tail_account
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         jmp __rsb_tail.odr_def@PLT # TAILCALL
define i32 @to_odr(i32 %x) {
  %r = tail call i32 @odr_def(i32 %x)
  ret i32 %r
}

;; dso_local, but another object's copy may be the one kept: by name, and
;; without @PLT like the original jump.
; CHECK-LABEL: {{^}}to_odr_local:
; CHECK-NOT:     __rsb_tail_account
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         jmp __rsb_tail.odr_local_def # TAILCALL
define i32 @to_odr_local(i32 %x) {
  %r = tail call i32 @odr_local_def(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_libc:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq puts@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
; RENAMED-LABEL: {{^}}to_libc:
; RENAMED:         leaq -8(%rsp), %rsp
; RENAMED:         callq puts@PLT
; RENAMED:         leaq 8(%rsp), %rsp
; RENAMED:         jmp my_reset # TAILCALL
define i32 @to_libc(ptr %s) {
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_leaf_libc:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp strlen@PLT # TAILCALL
; RENAMED-LABEL: {{^}}to_leaf_libc:
; RENAMED:         callq my_account{{$}}
; RENAMED-NEXT:    jmp strlen@PLT # TAILCALL
define i64 @to_leaf_libc(ptr %s) {
  %r = tail call i64 @strlen(ptr %s)
  ret i64 %r
}

; Where the target has no accounting entry's mark (the check in front is in
; indirect-tail-call-mark.ll).
; CHECK-LABEL: {{^}}to_pointer:
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    jmpq *%{{r11|rax}} # TAILCALL
define i32 @to_pointer(ptr %fp, i32 %x) {
  %r = tail call i32 %fp(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_weak:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq weak_def@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
define i32 @to_weak(i32 %x) {
  %r = tail call i32 @weak_def(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_extern_weak:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq ext_weak@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
define i32 @to_extern_weak(i32 %x) {
  %r = tail call i32 @ext_weak(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_skipped:
; CHECK:         leaq -8(%rsp), %rsp
; CHECK:         callq naked_fn@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
define i32 @to_skipped(i32 %x) {
  %r = tail call i32 @naked_fn(i32 %x)
  ret i32 %r
}

;; leaf is at 0x10, its entry at 0x6: the tail call skips the prefix.
; OBJ-LABEL: <to_static>:
; OBJ-NEXT:    {{(eb|e9) .*}} jmp 0x10 <leaf>
; OBJ-LABEL: <to_dso_local>:
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 local_def-0x4
; OBJ-LABEL: <to_external>:
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail.ext-0x4
; OBJ-LABEL: <to_odr_local>:
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail.odr_local_def-0x4
; OBJ-LABEL: <to_libc>:
; OBJ-NEXT:    48 8d 64 24 f8 leaq -0x8(%rsp), %rsp
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 puts-0x4
; OBJ-NEXT:    48 8d 64 24 08 leaq 0x8(%rsp), %rsp
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-LABEL: <to_leaf_libc>:
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail_account-0x4
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 strlen-0x4
