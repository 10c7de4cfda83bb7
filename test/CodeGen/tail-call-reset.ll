; A tail call to a plain target (one that may return with a plain `ret`)
; ends a call our caller counted with an unaccounted return, and the target's
; own calls are invisible to the counter. Right before the jump:
;  - every target gets `callq __rsb_tail_account`, which accounts that
;    plain `ret` as the return thunk would;
;  - a target that is not a known leaf (printf, a function pointer) also
;    gets `callq __rsb_reset_depth` after it: its calls may take the
;    credit's entries. A reset alone accounts nothing: in a recursion
;    through such tail calls each plain `ret` would spend an unchecked
;    entry.
; Both helpers preserve every general register, so the arguments already set
; up for the jump (%al for a variadic callee) survive.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s

declare i32 @printf(ptr, ...)
declare ptr @memcpy(ptr, ptr, i64)
declare i64 @strlen(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @rsb_depth_read()

; CHECK-LABEL: {{^}}to_printf:
; CHECK:         xorl %eax, %eax
; CHECK-NEXT:       leaq -8(%rsp), %rsp
; CHECK:         callq printf@PLT
; CHECK:         leaq 8(%rsp), %rsp
; CHECK:         jmp __rsb_reset_depth # TAILCALL
; CHECK-NEXT:  .Lfunc_end[[#]]:
define i32 @to_printf(ptr %fmt) {
  %r = tail call i32 (ptr, ...) @printf(ptr %fmt)
  ret i32 %r
}

; Where the target has no accounting entry's mark (the check in front is in
; indirect-tail-call-mark.ll).
; CHECK-LABEL: {{^}}to_pointer:
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    jmpq *%{{r11|rax}} # TAILCALL
; CHECK-NEXT:  .Lfunc_end[[#]]:
define i32 @to_pointer(ptr %fp, i32 %x) {
  %r = tail call i32 %fp(i32 %x)
  ret i32 %r
}

; CHECK-LABEL: {{^}}to_memcpy:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp memcpy@PLT # TAILCALL
; CHECK-NEXT:  .Lfunc_end[[#]]:
define ptr @to_memcpy(ptr %d, ptr %s, i64 %n) {
  %r = tail call ptr @memcpy(ptr %d, ptr %s, i64 %n)
  ret ptr %r
}

; CHECK-LABEL: {{^}}to_strlen:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp strlen@PLT # TAILCALL
define i64 @to_strlen(ptr %s) {
  %r = tail call i64 @strlen(ptr %s)
  ret i64 %r
}

;; llvm.memset becomes a tail call to the libcall `memset`, by name.
; CHECK-LABEL: {{^}}to_memset:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp memset@PLT # TAILCALL
define void @to_memset(ptr %d, i64 %n) {
  tail call void @llvm.memset.p0.i64(ptr %d, i8 0, i64 %n, i1 false)
  ret void
}

; CHECK-LABEL: {{^}}to_runtime:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __rsb_tail_account{{$}}
; CHECK-NEXT:    jmp rsb_depth_read@PLT # TAILCALL
define i64 @to_runtime() {
  %r = tail call i64 @rsb_depth_read()
  ret i64 %r
}

; OBJ-LABEL: <to_printf>:
; OBJ-NEXT:    31 c0 xorl %eax, %eax
; OBJ-NEXT:    48 8d 64 24 f8 leaq -0x8(%rsp), %rsp
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 printf-0x4
; OBJ-NEXT:    48 8d 64 24 08 leaq 0x8(%rsp), %rsp
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-LABEL: <to_memcpy>:
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail_account-0x4
; OBJ-NEXT:    e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 memcpy-0x4
