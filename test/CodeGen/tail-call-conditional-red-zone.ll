; A leaf function may keep locals in the red zone, the 128 bytes below %rsp
; that only signal frames may overwrite. A function whose only call is a
; sibling tail call is such a leaf, and branch folding can turn that tail
; call into a conditional one (`je target`) while the fall-through path still
; reads a red-zone local afterwards. The helpers the pass calls right before
; the jcc (`__rsb_tail_account_flags`, then `__rsb_reset_depth` unless the
; target is a leaf or resets are off) would push their return addresses onto
; that local, so the pass steps over the red zone once around both calls
; with flag-preserving LEAs, telling the unwinder about the moved CFA, and
; the local survives.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,CFI,RESET
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-reset=false \
; RUN:   %s -o - | FileCheck %s --check-prefixes=CHECK,CFI
; RUN: %clang_rsb -target x86_64-linux-gnu -Os -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefixes=CHECK,RESET
;; Without the plugin: a red-zone local and a conditional tail call.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF-LABEL: {{^}}rz:
; OFF:         movl %esi, -[[#]](%rsp)
; OFF:         je puts@PLT # TAILCALL
; OFF:         movl -[[#]](%rsp), %eax
; OFF-LABEL: {{^}}rz_leaf:
; OFF:         movq %rdi, -[[#]](%rsp)
; OFF:         je strlen@PLT # TAILCALL
; OFF:         movq -[[#]](%rsp), %rax

; CHECK-LABEL: {{^}}rz:
; CHECK:         movl %esi, [[SLOT:-?[0-9]*\(%rsp\)]]
; CHECK:         leaq -128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset 128
; CHECK-NEXT:    callq __rsb_tail_account_flags{{$}}
; RESET-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    je puts@PLT
; CHECK:         movl [[SLOT]], %eax
; CHECK-LABEL: {{^}}rz_leaf:
; CHECK:         movq %rdi, [[SLOT2:-?[0-9]*\(%rsp\)]]
; CHECK:         leaq -128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset 128
; CHECK-NEXT:    callq __rsb_tail_account_flags
; CHECK-NEXT:    leaq 128(%rsp), %rsp
; CFI-NEXT:      .cfi_adjust_cfa_offset -128
; CHECK-NEXT:    je strlen@PLT
; CHECK:         movq [[SLOT2]], %rax

declare i32 @puts(ptr)
declare i64 @strlen(ptr)

define i32 @rz(ptr %s, i32 %x) optsize {
entry:
  %buf = alloca [4 x i32], align 16
  store volatile i32 %x, ptr %buf
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i32 @puts(ptr %s)
  ret i32 %r
done:
  %v = load volatile i32, ptr %buf
  ret i32 %v
}

define i64 @rz_leaf(ptr %s, i32 %x) optsize {
entry:
  %buf = alloca [2 x i64], align 16
  store volatile ptr %s, ptr %buf
  %c = icmp eq i32 %x, 0
  br i1 %c, label %call, label %done
call:
  %r = tail call i64 @strlen(ptr %s)
  ret i64 %r
done:
  %v = load volatile i64, ptr %buf
  ret i64 %v
}
