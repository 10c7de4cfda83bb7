; An exception reaches a landing pad after the unwinder's own calls and
; returns (personality routine, _Unwind_RaiseException, ...), none of which
; the counter saw, and after unwinding frames whose counted calls never
; returned through the thunk. So every landing pad of an instrumented
; function starts, right after its labels, with `callq __rsb_reset_depth`
; (which preserves %rax and %rdx, the exception pointer and selector). The
; invoked call itself is redirected as usual; the normal path gets no reset.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s
;; Without the plugin the landing pad starts with its own code.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

declare i32 @__gxx_personality_v0(...)
declare void @may_throw(i32)
declare void @cleanup(ptr)
declare void @handle(ptr)

;; The normal path: counted call, no reset.
; CHECK-LABEL: {{^}}catcher:
; CHECK:       .Ltmp[[#]]:
; CHECK-NEXT:    callq __rsb_entry.may_throw@PLT{{$}}
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
;; The landing pad: its labels (and the CFA offset for its layout), then
;; the reset before anything else.
; CHECK:       .LBB0_[[#]]: # %lpad
; CHECK-NEXT:    .cfi_def_cfa_offset 16
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    movq %rax, %rdi
; CHECK-NEXT:    callq __rsb_entry.handle@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:       .Lfunc_end0:
; OFF-LABEL:   {{^}}catcher:
; OFF:         .LBB0_[[#]]: # %lpad
; OFF-NEXT:      .cfi_def_cfa_offset 16
; OFF-NEXT:    .Ltmp[[#]]:
; OFF-NEXT:      movq %rax, %rdi
; OFF-NEXT:      callq handle@PLT{{$}}
define void @catcher(i32 %x) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 %x)
          to label %done unwind label %lpad
done:
  call void asm sideeffect "", ""()
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          catch ptr null
  %exn = extractvalue { ptr, i32 } %lp, 0
  call void @handle(ptr %exn)
  call void asm sideeffect "", ""()
  ret void
}

;; A cleanup pad, which ends in a call to _Unwind_Resume, which never
;; returns: neither counted nor followed by a reset.
; CHECK-LABEL: {{^}}cleaner:
; CHECK:       .LBB1_[[#]]: # %lpad
; CHECK-NEXT:    .cfi_def_cfa_offset 32
; CHECK-NEXT:  .Ltmp[[#]]:
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq _Unwind_Resume@PLT{{$}}
; CHECK-NEXT:  .Lfunc_end1:
define void @cleaner(ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  invoke void @may_throw(i32 1)
          to label %done unwind label %lpad
done:
  call void asm sideeffect "", ""()
  ret void
lpad:
  %lp = landingpad { ptr, i32 }
          cleanup
  call void @cleanup(ptr %p)
  resume { ptr, i32 } %lp
}

; OBJ-LABEL: <catcher>:
; OBJ:         R_X86_64_PLT32 __rsb_entry.may_throw-0x4
; OBJ-NOT:     __rsb_reset_depth
; OBJ:         R_X86_64_PLT32 __rsb_refill_return-0x4
; OBJ-NEXT:    c3 retq
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-NEXT:    48 89 c7 movq %rax, %rdi
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.handle-0x4
