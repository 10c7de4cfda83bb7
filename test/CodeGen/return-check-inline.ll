; The default return check (-x86-rsb-stuff-return-check=auto): every `ret`
; keeps its place but is preceded by the return thunk's hot path, `shlq $5`
; on the counter and a conditional tail jump to __rsb_refill_return when
; that leaves zero (docs/performance.md measured it faster than the jump to
; the thunk). Executables use the local-exec counter, shared objects the
; initial-exec one through %r11; prefixes and calls are unchanged. With the
; statistics runtime, each return counts itself first, as the thunk would.
; Functions optimised for size (-Os, -Oz) keep the 5-byte `jmp` to the
; thunk, unless `inline` is asked for; `thunk` gives the jump everywhere, as
; does the ret-thunk variant.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,AUTO
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=inline %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,INLINE
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=PIC
;; (clang -O2 folds the two returns into one.)
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefix=CLANG
;; The statistics build counts the return in place of the thunk.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   %s -o - | FileCheck %s --check-prefix=STATS
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk %s -o - \
; RUN:   | FileCheck %s --check-prefix=THUNK
;; The ret-thunk variant, which counts nothing, only has the thunk.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-variant=ret-thunk %s -o - \
; RUN:   | FileCheck %s --check-prefix=THUNK

declare void @ext()

; CHECK-LABEL: __rsb_entry.two_returns:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-LABEL: {{^}}two_returns:
; CHECK:         callq __rsb_entry.ext
; CHECK:         movl $20, %eax
; CHECK-NEXT:    popq %rbx
; CHECK-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return # TAILCALL
; CHECK-NEXT:    retq
; CHECK:         movl $10, %eax
; CHECK-NEXT:    popq %rbx
; CHECK-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return # TAILCALL
; CHECK-NEXT:    retq
; CHECK-NOT:     __rsb_return_thunk
; CHECK:       .Lfunc_end0:

; CLANG-LABEL: {{^}}two_returns:
; CLANG:         popq %rbx
; CLANG-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; CLANG-NEXT:    je __rsb_refill_return # TAILCALL
; CLANG-NEXT:    retq
; CLANG-NOT:     __rsb_return_thunk
; CLANG:       .Lfunc_end0:

; PIC-LABEL: <two_returns>:
; PIC:         4c 8b 1d 00 00 00 00 movq (%rip), %r11
; PIC-NEXT:      R_X86_64_GOTTPOFF __rsb_depth-0x4
; PIC-NEXT:    64 49 c1 23 05 shlq $0x5, %fs:(%r11)
; PIC-NEXT:    0f 84 00 00 00 00 je
; PIC-NEXT:      R_X86_64_PLT32 __rsb_refill_return-0x4
; PIC-NEXT:    c3 retq
; PIC:         64 49 c1 23 05 shlq $0x5, %fs:(%r11)
; PIC-NEXT:    0f 84 00 00 00 00 je
; PIC-NEXT:      R_X86_64_PLT32 __rsb_refill_return-0x4
; PIC-NEXT:    c3 retq
; PIC-NOT:     __rsb_return_thunk
; PIC-LABEL: <small>:
; PIC:         R_X86_64_PLT32 __rsb_return_thunk-0x4

; STATS-LABEL: {{^}}two_returns:
; STATS:         popq %rbx
; STATS-NEXT:    incq %fs:__rsb_stats@TPOFF+8
; STATS-NEXT:    shlq $5, %fs:__rsb_depth@TPOFF
; STATS-NEXT:    je __rsb_refill_return # TAILCALL
; STATS-NEXT:    retq
; STATS-NOT:     __rsb_return_thunk
; STATS:       .Lfunc_end0:

; THUNK-LABEL: {{^}}two_returns:
; THUNK-NOT:     __rsb_refill_return
; THUNK-NOT:     {{^[[:space:]]+retq}}
; THUNK:         jmp __rsb_return_thunk # TAILCALL
; THUNK-NOT:     {{^[[:space:]]+retq}}
; THUNK:         jmp __rsb_return_thunk # TAILCALL
; THUNK-NOT:     {{^[[:space:]]+retq}}
; THUNK:       .Lfunc_end0:
define i32 @two_returns(i32 %x) nounwind {
entry:
  call void @ext()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  ret i32 10
b:
  ret i32 20
}

; AUTO-LABEL:   {{^}}small:
; AUTO-NOT:       {{^[[:space:]]+retq}}
; AUTO:           jmp __rsb_return_thunk # TAILCALL
; AUTO-NOT:       {{^[[:space:]]+retq}}
; AUTO:         .Lfunc_end1:
; INLINE-LABEL: {{^}}small:
; INLINE:         shlq $5, %fs:__rsb_depth@TPOFF
; INLINE-NEXT:    je __rsb_refill_return # TAILCALL
; INLINE-NEXT:    retq
; INLINE-NOT:     __rsb_return_thunk
; INLINE:       .Lfunc_end1:
; THUNK-LABEL:  {{^}}small:
; THUNK:          jmp __rsb_return_thunk # TAILCALL
define i32 @small(i32 %x) optsize nounwind {
  call void @ext()
  ret i32 %x
}
