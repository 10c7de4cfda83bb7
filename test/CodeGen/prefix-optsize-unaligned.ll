; A function optimised for size keeps the plain build's alignment, which at
; -Os/-Oz is none: its prefix follows the previous function's last byte,
; with no int3 fill and no .p2align in front (before issue 30 every
; instrumented function was 16-byte aligned, 12 + 0 to 15 bytes a function
; at -Os where the plain build has none). The accounting still ends exactly
; at f, and rsb-verify accepts f at any address. A function not optimised
; for size in the same file stays 16-byte aligned.

; The entries hold their `sarq` here (-x86-rsb-stuff-compact-entries=false:
; by default they call the runtime's, prefix-optsize-count-call.ll).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false %s \
; RUN:   -x86-rsb-stuff-compact-entries=false -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s \
; RUN:   -x86-rsb-stuff-compact-entries=false -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: %rsb-verify %t.o | FileCheck %s --check-prefix=VERIFY

; CHECK-LABEL: .type first,@function
; CHECK-NOT:     .p2align
; CHECK-NOT:     .zero
; CHECK:       __rsb_entry.first:
; CHECK-NEXT:    sarq $5, %fs:__rsb_depth@TPOFF
; CHECK:       first:
; CHECK-LABEL: .type second,@function
; CHECK-NOT:     .p2align
; CHECK-NOT:     .zero
; CHECK:       __rsb_entry.second:
; CHECK-LABEL: .type fast,@function
; CHECK:         .zero {{.*}},204
; CHECK:       __rsb_entry.fast:

; The prefixes follow each other with no gap: first's code is 7 bytes (a
; 2-byte mov and a 5-byte jmp to the return thunk) after its 12-byte prefix.
; SYM-DAG: {{0+}}2 10 FUNC {{.*}} __rsb_entry.first
; SYM-DAG: {{0+}}c 7 FUNC {{.*}} first
; SYM-DAG: {{0+}}15 10 FUNC {{.*}} __rsb_entry.second
; SYM-DAG: {{0+}}1f {{[0-9]+}} FUNC {{.*}} second
; SYM-DAG: {{0+[0-9a-f]*0}} {{[0-9]+}} FUNC {{.*}} fast

; VERIFY: rsb-verify: 3 instrumented functions, 0 violations

define i32 @first(i32 %x) optsize {
  ret i32 %x
}

define i32 @second(i32 %x) minsize optsize {
  %r = call i32 @first(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

define i32 @fast(i32 %x) {
  %r = call i32 @second(i32 %x)
  ret i32 %r
}
