; A PIE is an executable: its counter lives in its own TLS block, so PIC code
; of a module with a "PIE Level" flag gets the local-exec prefix under the
; default -x86-rsb-stuff-tls=auto, and never the GOT form.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=ASM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fPIE -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-objdump -dr %t.clang.o | FileCheck %s --check-prefix=OBJ
;; An explicit initial-exec still applies to a PIE.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -x86-rsb-stuff-tls=initial-exec %s -o - \
; RUN:   | FileCheck %s --check-prefix=IE

; ASM-LABEL: __rsb_entry.f:
; ASM-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; ASM-NEXT:    .cfi_endproc
; ASM-NOT:     GOTTPOFF
; ASM-NOT:     %r11

; OBJ:      0000000000000006 <__rsb_entry.f>:
; OBJ-NEXT:         6: 64 48 c1 3c 25 00 00 00 00 05 sarq $0x5, %fs:0x0
; OBJ-NEXT:            000000000000000b: R_X86_64_TPOFF32 __rsb_depth{{$}}
; OBJ-EMPTY:
; OBJ-NEXT: 0000000000000010 <f>:
; OBJ-NOT:  GOTTPOFF

; IE-LABEL: __rsb_entry.f:
; IE-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; IE-NEXT:    sarq $5, %fs:(%r11)

define i32 @f(i32 %x) {
  %r = add i32 %x, 1
  ret i32 %r
}

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}
