; Conditional tail calls (`jcc target`, TAILJMPd64_CC) come from branch
; folding in optsize functions. The helper goes right before the jcc (it runs
; on both paths: on the fall-through path the credit is then cleared, or the
; return accounted twice, which under-counts calls and is safe), so it must
; keep the flags the jcc tests:
;  - to a libc function that is not a leaf, `callq __rsb_reset_depth`, which
;    preserves the flags;
;  - to a known leaf, the flags-preserving __rsb_tail_account_flags (plain
;    __rsb_tail_account clobbers them);
;  - to an external target the jcc goes to the tail alias, no helper needed.
; (tail-call-conditional-red-zone.ll: a call before the jcc is wrong when the
; function keeps locals in the red zone.)

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s --check-prefixes=CHECK,CFI
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -Os -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s
;; Without the plugin the same branch folding happens (the input does produce
;; conditional tail calls).
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

declare i32 @puts(ptr)
declare i64 @strlen(ptr)
declare i32 @ext(ptr)

; CHECK-LABEL: {{^}}cond_libc:
; CHECK:         testl %esi, %esi
; CHECK-NEXT:    leaq -128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset 128
; CHECK-NEXT:    callq __rsb_tail_account_flags{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    je puts@PLT # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:         jmp __rsb_return_thunk # TAILCALL
; OFF-LABEL: {{^}}cond_libc:
; OFF:         testl %esi, %esi
; OFF-NEXT:    je puts@PLT # TAILCALL
define i32 @cond_libc(ptr %s, i32 %x) optsize {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
done:
  ret i32 0
}

; CHECK-LABEL: {{^}}cond_leaf:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         testl %esi, %esi
; CHECK-NEXT:    leaq -128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset 128
; CHECK-NEXT:    callq __rsb_tail_account_flags{{$}}
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    je strlen@PLT # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:         jmp __rsb_return_thunk # TAILCALL
; OFF-LABEL: {{^}}cond_leaf:
; OFF:         testl %esi, %esi
; OFF-NEXT:    je strlen@PLT # TAILCALL
define i64 @cond_leaf(ptr %s, i32 %x) optsize {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i64 @strlen(ptr %s)
  ret i64 %r
done:
  ret i64 0
}

; CHECK-LABEL: {{^}}cond_ext:
; CHECK:         testl %esi, %esi
; CHECK-NEXT:    je __rsb_tail.ext@PLT # TAILCALL
; CHECK-NOT:     __rsb_tail_account
; CHECK:         jmp __rsb_return_thunk # TAILCALL
; OFF-LABEL: {{^}}cond_ext:
; OFF:         testl %esi, %esi
; OFF-NEXT:    je ext@PLT # TAILCALL
define i32 @cond_ext(ptr %s, i32 %x) optsize {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i32 @ext(ptr %s)
  ret i32 %r
done:
  ret i32 0
}

; OBJ-LABEL: <cond_libc>:
; OBJ-NEXT:    85 f6 testl %esi, %esi
; OBJ-NEXT:    48 8d 64 24 80 leaq -0x80(%rsp), %rsp
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail_account_flags-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-NEXT:    48 8d a4 24 80 00 00 00 leaq 0x80(%rsp), %rsp
; OBJ-NEXT:    0f 84 00 00 00 00 je
; OBJ-NEXT:      R_X86_64_PLT32 puts-0x4
; OBJ-LABEL: <cond_leaf>:
; OBJ-NEXT:    85 f6 testl %esi, %esi
; OBJ-NEXT:    48 8d 64 24 80 leaq -0x80(%rsp), %rsp
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail_account_flags-0x4
; OBJ-NEXT:    48 8d a4 24 80 00 00 00 leaq 0x80(%rsp), %rsp
; OBJ-NEXT:    0f 84 00 00 00 00 je
; OBJ-NEXT:      R_X86_64_PLT32 strlen-0x4
; OBJ-LABEL: <cond_ext>:
; OBJ-NEXT:    85 f6 testl %esi, %esi
; OBJ-NEXT:    0f 84 00 00 00 00 je
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_tail.ext-0x4
