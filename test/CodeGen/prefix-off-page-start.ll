; In an executable, a function that an indirect call may reach (its address
; is taken, or it is not local, so another module may take it) never starts
; a page: it lies off the multiples of 64, so that bit 4 or 5 of its address
; is set and the mark check's `testl $0x3f0` reads the mark. The int3 fill
; in front of its prefix first rounds the prefix's end up to 16 bytes, from
; a 64-byte aligned anchor, then adds 16 more where that end is a multiple
; of 64 (until issue 30, f lay 16 bytes past a 32-byte boundary: 8 bytes
; more on average). The mark check treats a target in the first 16 bytes of
; a page as unmarked, because the bytes before it might be unmapped; without
; this alignment a hot function that the link happened to put at a page
; start lost its counting (SQLite's vdbeRecordCompareInt, 1.4 % more
; instructions). A local function whose address is not taken, code for
; shared objects (no mark) and -x86-rsb-stuff-count-indirect=false keep
; the 16-byte alignment, modulo 16; functions optimised for size keep the
; plain build's, none (prefix-optsize-unaligned.ll).
; The statistics prefix (incq and sarq, 19 bytes, 21 with the tail stub) is
; placed the same way. A function alone in its section (-ffunction-sections,
; COMDAT) lies 16 bytes past a 32-byte boundary instead, from a 32-byte
; aligned anchor: the anchor's alignment becomes the section's, and the
; linker pads less in front of a 32-byte aligned section than a 64-byte one.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o %t.s
; RUN: llvm-mc -triple=x86_64-linux-gnu -filetype=obj %t.s -o %t.s.o
; RUN: llvm-readelf -s %t.s.o | FileCheck %s --check-prefix=SYM
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefix=SIXTEEN
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-count-indirect=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=SIXTEEN
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -x86-rsb-stuff-stats \
; RUN:   %s -o - | FileCheck %s --check-prefix=STATS
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -function-sections \
; RUN:   %s -o - | FileCheck %s --check-prefix=OWN
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -function-sections \
; RUN:   -filetype=obj %s -o %t.own.o
; RUN: llvm-readelf -S -s %t.own.o | FileCheck %s --check-prefix=OWN-SYM

@table = global [1 x ptr] [ptr @address_taken]

; CHECK-LABEL:   .type global,@function
; CHECK-NEXT:    .p2align 6
; CHECK-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; CHECK-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; CHECK-NEXT:    .zero ((20-(([[FILL]]-[[ANCHOR]])&15))&15)+(16-((((([[FILL]]-[[ANCHOR]]+((20-(([[FILL]]-[[ANCHOR]])&15))&15)+12)&63)+63)>>6)*16)),204
; CHECK:       __rsb_entry.global:
; SIXTEEN-LABEL: .type global,@function
; SIXTEEN-NEXT:  .p2align 4
; SIXTEEN-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; SIXTEEN-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; SIXTEEN-NEXT:  .zero ({{[0-9]+}}-(([[FILL]]-[[ANCHOR]])&15))&15,204
; STATS-LABEL:   .type global,@function
; STATS-NEXT:    .p2align 6
; STATS-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; STATS-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; STATS-NEXT:    .zero ((27-(([[FILL]]-[[ANCHOR]])&15))&15)+(16-((((([[FILL]]-[[ANCHOR]]+((27-(([[FILL]]-[[ANCHOR]])&15))&15)+21)&63)+63)>>6)*16)),204
; OWN-LABEL:     .type global,@function
; OWN-NEXT:      .p2align 5
; OWN-NEXT:    [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; OWN-NEXT:    [[FILL:.Ltmp[0-9]+]]:
; OWN-NEXT:      .zero (36-(([[FILL]]-[[ANCHOR]])&31))&31,204
define i32 @global(i32 %x) {
  %r = call i32 @local(i32 %x)
  ret i32 %r
}

; CHECK-LABEL:   .type local,@function
; CHECK-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; CHECK-NEXT:    .zero (22-(([[FILL]]-[[ANCHOR]])&15))&15,204
define internal i32 @local(i32 %x) noinline {
  %a = mul i32 %x, 1000003
  %b = xor i32 %a, 12345678
  %r = add i32 %b, 87654321
  ret i32 %r
}

; CHECK-LABEL:   .type address_taken,@function
; CHECK-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; CHECK-NEXT:    .zero ((22-(([[FILL]]-[[ANCHOR]])&15))&15)+(16-((((([[FILL]]-[[ANCHOR]]+((22-(([[FILL]]-[[ANCHOR]])&15))&15)+10)&63)+63)>>6)*16)),204
; SIXTEEN-LABEL: .type address_taken,@function
; SIXTEEN-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; SIXTEEN-NEXT:  .zero ({{[0-9]+}}-(([[FILL]]-[[ANCHOR]])&15))&15,204
; STATS-LABEL:   .type address_taken,@function
; STATS-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; STATS-NEXT:    .zero ((29-(([[FILL]]-[[ANCHOR]])&15))&15)+(16-((((([[FILL]]-[[ANCHOR]]+((29-(([[FILL]]-[[ANCHOR]])&15))&15)+19)&63)+63)>>6)*16)),204
define internal i32 @address_taken(i32 %x) noinline {
  %r = mul i32 %x, 3
  ret i32 %r
}

; CHECK-LABEL:   .type small,@function
; CHECK-NOT:     .zero
; CHECK:       __rsb_entry.small:
define i32 @small(i32 %x) optsize {
  %r = call i32 @local(i32 %x)
  ret i32 %r
}

define i32 @one(i32 %x) {
  ret i32 %x
}

define i32 @two(i32 %x) {
  %a = mul i32 %x, 1000003
  %b = xor i32 %a, 12345678
  %c = add i32 %b, 87654321
  %d = mul i32 %c, 7654321
  %r = xor i32 %d, 33333333
  ret i32 %r
}

define i32 @three(i32 %x) {
  %a = mul i32 %x, 1000003
  %b = xor i32 %a, 12345678
  %c = add i32 %b, 87654321
  %d = mul i32 %c, 7654321
  %e = xor i32 %d, 33333333
  %f = mul i32 %e, 1234567
  %r = add i32 %f, 4444444
  ret i32 %r
}

define i32 @four(i32 %x) {
  ret i32 %x
}

define i32 @five(i32 %x) {
  ret i32 %x
}

; In the object, from the compiler and from the assembler, every such
; function is 16-byte aligned and off the multiples of 64 (the second-last
; hex digit is not 0, 4, 8 or c), whatever came before. `four` lies 32 bytes
; past a 64-byte boundary, where the rounding puts it (a 16-past-32 rule
; would take 16 bytes more); four ends at 0x173 and the rounding would end
; five's prefix at 0x180, a multiple of 64, so 16 more int3s (17 in all)
; put its tail alias at 0x184 and five at 0x190.
; SYM-DAG: {{[0-9a-f]{14}[1235679abdef]0}} {{.*}} FUNC GLOBAL DEFAULT {{.*}} global{{$}}
; SYM-DAG: {{[0-9a-f]{14}[1235679abdef]0}} {{.*}} FUNC LOCAL DEFAULT {{.*}} address_taken{{$}}
; SYM-DAG: {{[0-9a-f]{14}[1235679abdef]0}} {{.*}} FUNC GLOBAL DEFAULT {{.*}} one{{$}}
; SYM-DAG: {{[0-9a-f]{14}[1235679abdef]0}} {{.*}} FUNC GLOBAL DEFAULT {{.*}} two{{$}}
; SYM-DAG: {{[0-9a-f]{14}[1235679abdef]0}} {{.*}} FUNC GLOBAL DEFAULT {{.*}} three{{$}}
; SYM-DAG: 0000000000000160 {{.*}} FUNC GLOBAL DEFAULT {{.*}} four{{$}}
; SYM-DAG: 0000000000000184 {{.*}} FUNC GLOBAL DEFAULT {{.*}} __rsb_tail.five{{$}}
; SYM-DAG: 0000000000000190 {{.*}} FUNC GLOBAL DEFAULT {{.*}} five{{$}}

; Alone in its section, f is 16 bytes into a 32-byte aligned section.
; OWN-SYM: .text.global PROGBITS {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 AX 0 0 32
; OWN-SYM: 0000000000000010 {{.*}} FUNC GLOBAL DEFAULT {{.*}} global{{$}}
