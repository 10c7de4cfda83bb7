; In a function optimised for size (-Os, -Oz) the entry calls the runtime's
; `__rsb_count_call`, which shifts the counter and returns into the entry,
; instead of holding the `sarq`: 5 bytes instead of 10 (12 in shared-object
; code), for a call and a return more per call of the function. The tail
; stub then jumps 5 bytes. Such a function is never a marked target of
; indirect calls, so nothing reads its entry's bytes. A function not
; optimised for size keeps the `sarq`, as do statistics builds (their
; `incq` goes with it), a function whose convention keeps %r11, and
; -x86-rsb-stuff-compact-entries=false. Under IBT the entry starts with its
; ENDBR64 as before. rsb-verify accepts the entry.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false %s \
; RUN:   -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s --check-prefix=PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   -asm-verbose=false %s -o - | FileCheck %s --check-prefix=STATS \
; RUN:   --implicit-check-not=__rsb_count_call
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-compact-entries=false -asm-verbose=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF --implicit-check-not=__rsb_count_call
; RUN: sed -e 's/^;@ //' %s | %llc -mtriple=x86_64-linux-gnu \
; RUN:   -x86-rsb-stuff -asm-verbose=false -o - | FileCheck %s --check-prefix=IBT
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: %rsb-verify %t.o | FileCheck %s --check-prefix=VERIFY

; CHECK-LABEL: __rsb_tail.small:
; CHECK-NEXT:    .byte 235
; CHECK-NEXT:    .byte 5
; CHECK:       __rsb_entry.small:
; CHECK-NEXT:    callq __rsb_count_call
; CHECK-NOT:     sarq
; CHECK:       {{^}}small:
; PIC-LABEL:   __rsb_entry.small:
; PIC-NEXT:      callq __rsb_count_call
; PIC-NOT:       __rsb_depth@GOTTPOFF
; PIC:         {{^}}small:
; STATS-LABEL: __rsb_entry.small:
; STATS-NEXT:    incq %fs:__rsb_stats@TPOFF
; STATS-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; OFF-LABEL:   __rsb_entry.small:
; OFF-NEXT:      sarq $5, %fs:__rsb_depth@TPOFF
; IBT-LABEL:   __rsb_entry.small:
; IBT-NEXT:      endbr64
; IBT-NEXT:      callq __rsb_count_call
define i32 @small(i32 %x) optsize {
  ret i32 %x
}

; CHECK-LABEL: __rsb_entry.smallest:
; CHECK-NEXT:    callq __rsb_count_call
define i32 @smallest(i32 %x) minsize optsize {
  %r = call i32 @small(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

; CHECK-LABEL: __rsb_entry.fast:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; PIC-LABEL:   __rsb_entry.fast:
; PIC-NEXT:      movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      sarq $5, %fs:(%r11)
define i32 @fast(i32 %x) {
  %r = call i32 @smallest(i32 %x)
  ret i32 %r
}

; %r11 carries preserve_none's 11th argument: in shared-object code the
; entry keeps it around the counter's load, and keeps the `sarq`.
; PIC-LABEL:   __rsb_entry.keeps_r11:
; PIC-NEXT:      .cfi_startproc
; PIC-NEXT:      pushq %r11
; PIC-NEXT:      .cfi_adjust_cfa_offset 8
; PIC-NEXT:      movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      sarq $5, %fs:(%r11)
; PIC-NEXT:      popq %r11
define preserve_nonecc i64 @keeps_r11(i64 %a, i64 %b, i64 %c, i64 %d, i64 %e, i64 %f, i64 %g, i64 %h, i64 %i, i64 %j, i64 %k) optsize {
  ret i64 %k
}

; The entry is 5 bytes and ends at its function; the tail stub is 2.
; SYM-DAG: {{0+}}2 5 FUNC {{.*}} __rsb_entry.small
; SYM-DAG: {{0+}}7 {{[0-9]+}} FUNC {{.*}} small
; SYM-DAG: {{0+}}0 2 FUNC {{.*}} __rsb_tail.small

; VERIFY: rsb-verify: 4 instrumented functions, 0 violations

;@ !llvm.module.flags = !{!0}
;@ !0 = !{i32 8, !"cf-protection-branch", i32 1}
