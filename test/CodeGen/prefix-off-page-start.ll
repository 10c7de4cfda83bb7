; In an executable, a function that an indirect call may reach (its address
; is taken, or it is not local, so another module may take it) lies 16
; bytes past a 32-byte boundary and never starts a page: the int3 fill in
; front of its prefix counts to that, modulo 32 from a 32-byte aligned
; anchor. The mark check treats a target
; in the first 16 bytes of a page as unmarked, because the bytes before it
; might be unmapped; without this alignment a hot function that the link
; happened to put at a page start lost its counting (SQLite's
; vdbeRecordCompareInt, 1.4 % more instructions). A local function whose
; address is not taken, code for shared objects (no mark), functions
; optimised for size and -x86-rsb-stuff-count-indirect=false keep the
; 16-byte alignment, modulo 16. The statistics prefix (incq and sarq, 19
; bytes, 21 with the tail stub) is placed the same way.

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

@table = global [1 x ptr] [ptr @address_taken]

; CHECK-LABEL:   .type global,@function
; CHECK-NEXT:    .p2align 5
; CHECK-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; CHECK-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; CHECK-NEXT:    .zero (36-(([[FILL]]-[[ANCHOR]])&31))&31,204
; CHECK:       __rsb_entry.global:
; SIXTEEN-LABEL: .type global,@function
; SIXTEEN-NEXT:  .p2align 4
; SIXTEEN-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; SIXTEEN-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; SIXTEEN-NEXT:  .zero ({{[0-9]+}}-(([[FILL]]-[[ANCHOR]])&15))&15,204
; STATS-LABEL:   .type global,@function
; STATS-NEXT:    .p2align 5
; STATS-NEXT:  [[ANCHOR:.Lrsb_anchor[0-9]+]]:
; STATS-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; STATS-NEXT:    .zero (59-(([[FILL]]-[[ANCHOR]])&31))&31,204
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
; CHECK-NEXT:    .zero (38-(([[FILL]]-[[ANCHOR]])&31))&31,204
; SIXTEEN-LABEL: .type address_taken,@function
; SIXTEEN-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; SIXTEEN-NEXT:  .zero ({{[0-9]+}}-(([[FILL]]-[[ANCHOR]])&15))&15,204
; STATS-LABEL:   .type address_taken,@function
; STATS-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; STATS-NEXT:    .zero (61-(([[FILL]]-[[ANCHOR]])&31))&31,204
define internal i32 @address_taken(i32 %x) noinline {
  %r = mul i32 %x, 3
  ret i32 %r
}

; CHECK-LABEL:   .type small,@function
; CHECK-NEXT:  [[FILL:.Ltmp[0-9]+]]:
; CHECK-NEXT:    .zero (20-(([[FILL]]-[[ANCHOR]])&15))&15,204
define i32 @small(i32 %x) optsize {
  %r = call i32 @local(i32 %x)
  ret i32 %r
}

; Every such function is 16 (mod 32) in the object, whatever came before
; (at 16-byte alignment, the code of `local` would put address_taken at a
; multiple of 32), in the assembler's output too.
; SYM-DAG: {{[0-9a-f]{14}[13579bdf]0}} {{.*}} FUNC GLOBAL DEFAULT {{.*}} global{{$}}
; SYM-DAG: {{[0-9a-f]{14}[13579bdf]0}} {{.*}} FUNC LOCAL DEFAULT {{.*}} address_taken{{$}}
