; The compact entry of code optimised for size, `call __rsb_count_call`,
; shifts the runtime's counter, __rsb_depth. With another counter
; (-x86-rsb-stuff-counter=) the function's returns check that one, so its
; entry must shift it too: it keeps the `sarq` on the named counter, in
; executable and shared-object code. (Before, the entry counted on
; __rsb_depth and the returns on my_depth.)

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-counter=my_depth -x86-rsb-stuff-return-check=inline \
; RUN:   -asm-verbose=false %s -o - \
; RUN:   | FileCheck %s --implicit-check-not=__rsb_count_call \
; RUN:   --implicit-check-not=__rsb_depth
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -x86-rsb-stuff-counter=my_depth -asm-verbose=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=PIC \
; RUN:   --implicit-check-not=__rsb_count_call --implicit-check-not=__rsb_depth

; CHECK-LABEL: __rsb_entry.small:
; CHECK-NEXT:    sarq $5, %fs:my_depth@TPOFF
; CHECK:       {{^}}small:
; CHECK:         shlq $5, %fs:my_depth@TPOFF
; CHECK-NEXT:    je __rsb_refill_return
; CHECK-NEXT:    retq
; PIC-LABEL:   __rsb_entry.small:
; PIC-NEXT:      movq my_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      sarq $5, %fs:(%r11)
; PIC:         {{^}}small:
define i32 @small(i32 %x) optsize {
  ret i32 %x
}
