; With -x86-rsb-stuff-stats each cap also counts itself in the thread's
; statistics block (struct rsb_stats.caps, offset 32), in both counter forms.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s --check-prefix=LE
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   -relocation-model=pic \
; RUN:   -x86-rsb-stuff-libc-depths=%S/Inputs/caps.depths %s -o - \
; RUN:   | FileCheck %s --check-prefix=IE

declare i32 @strcoll(ptr, ptr)

; LE-LABEL: {{^}}f:
; LE:         callq strcoll@PLT{{$}}
; LE-NEXT:    movq __rsb_cap.strcoll(%rip), %r10
; LE-NEXT:    andq %r10, %fs:__rsb_depth@TPOFF
; LE-NEXT:    incq %fs:__rsb_stats@TPOFF+32
; IE-LABEL: {{^}}f:
; IE:         callq strcoll@PLT{{$}}
; IE-NEXT:    movq __rsb_cap.strcoll(%rip), %r10
; IE-NEXT:    movq __rsb_depth@GOTTPOFF(%rip), %r11
; IE-NEXT:    andq %r10, %fs:(%r11)
; IE-NEXT:    movq __rsb_stats@GOTTPOFF(%rip), %r11
; IE-NEXT:    incq %fs:32(%r11)
define i32 @f(ptr %a, ptr %b) {
  %r = call i32 @strcoll(ptr %a, ptr %b)
  call void asm sideeffect "", ""()
  ret i32 %r
}
