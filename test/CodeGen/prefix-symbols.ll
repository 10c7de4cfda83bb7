; __rsb_entry.<f> is a FUNC symbol of size 10 (the accounting instruction)
; with f's binding (GLOBAL for external linkage, LOCAL for internal, WEAK for
; weak and linkonce_odr) and f's visibility (hidden, protected).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-readelf -s %t.clang.o | FileCheck %s

; CHECK-DAG: [[#%x,EXT:]] [[#]] FUNC GLOBAL DEFAULT [[#]] external{{$}}
; CHECK-DAG: [[#%.16x,EXT-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.external{{$}}
; CHECK-DAG: [[#%x,INT:]] [[#]] FUNC LOCAL DEFAULT [[#]] internal{{$}}
; CHECK-DAG: [[#%.16x,INT-10]] 10 FUNC LOCAL DEFAULT [[#]] __rsb_entry.internal{{$}}
; CHECK-DAG: [[#%x,LO:]] [[#]] FUNC WEAK DEFAULT [[#]] linkonce{{$}}
; CHECK-DAG: [[#%.16x,LO-10]] 10 FUNC WEAK DEFAULT [[#]] __rsb_entry.linkonce{{$}}
; CHECK-DAG: [[#%x,WK:]] [[#]] FUNC WEAK DEFAULT [[#]] weakdef{{$}}
; CHECK-DAG: [[#%.16x,WK-10]] 10 FUNC WEAK DEFAULT [[#]] __rsb_entry.weakdef{{$}}
; CHECK-DAG: [[#%x,WO:]] [[#]] FUNC WEAK DEFAULT [[#]] weakodr{{$}}
; CHECK-DAG: [[#%.16x,WO-10]] 10 FUNC WEAK DEFAULT [[#]] __rsb_entry.weakodr{{$}}
; CHECK-DAG: [[#%x,HID:]] [[#]] FUNC GLOBAL HIDDEN [[#]] hiddenfn{{$}}
; CHECK-DAG: [[#%.16x,HID-10]] 10 FUNC GLOBAL HIDDEN [[#]] __rsb_entry.hiddenfn{{$}}
; CHECK-DAG: [[#%x,PROT:]] [[#]] FUNC GLOBAL PROTECTED [[#]] protectedfn{{$}}
; CHECK-DAG: [[#%.16x,PROT-10]] 10 FUNC GLOBAL PROTECTED [[#]] __rsb_entry.protectedfn{{$}}

; ASM-LABEL: .type external,@function
; ASM:         .type __rsb_entry.external,@function
; ASM-NEXT:    .globl __rsb_entry.external
; ASM-NEXT:  __rsb_entry.external:
; ASM-LABEL: .type internal,@function
; ASM:         .type __rsb_entry.internal,@function
; ASM-NEXT:  __rsb_entry.internal:
; ASM-LABEL: .type linkonce,@function
; ASM:         .type __rsb_entry.linkonce,@function
; ASM-NEXT:    .weak __rsb_entry.linkonce
; ASM-NEXT:  __rsb_entry.linkonce:
; ASM-LABEL: .type weakdef,@function
; ASM:         .type __rsb_entry.weakdef,@function
; ASM-NEXT:    .weak __rsb_entry.weakdef
; ASM-NEXT:  __rsb_entry.weakdef:
; ASM-LABEL: .type weakodr,@function
; ASM:         .type __rsb_entry.weakodr,@function
; ASM-NEXT:    .weak __rsb_entry.weakodr
; ASM-NEXT:  __rsb_entry.weakodr:
; ASM-LABEL: .type hiddenfn,@function
; ASM:         .type __rsb_entry.hiddenfn,@function
; ASM-NEXT:    .globl __rsb_entry.hiddenfn
; ASM-NEXT:    .hidden __rsb_entry.hiddenfn
; ASM-NEXT:  __rsb_entry.hiddenfn:
; ASM-LABEL: .type protectedfn,@function
; ASM:         .type __rsb_entry.protectedfn,@function
; ASM-NEXT:    .globl __rsb_entry.protectedfn
; ASM-NEXT:    .protected __rsb_entry.protectedfn
; ASM-NEXT:  __rsb_entry.protectedfn:
;; A static function's entry never becomes global.
; ASM-NOT:   {{.globl|.weak}} __rsb_entry.internal

define i32 @external(i32 %x) noinline {
  ret i32 %x
}

define internal i32 @internal(i32 %x) noinline {
  %r = add i32 %x, 3
  ret i32 %r
}

define linkonce_odr i32 @linkonce(i32 %x) noinline {
  %r = add i32 %x, 4
  ret i32 %r
}

define weak i32 @weakdef(i32 %x) noinline {
  %r = add i32 %x, 5
  ret i32 %r
}

define weak_odr i32 @weakodr(i32 %x) noinline {
  %r = add i32 %x, 6
  ret i32 %r
}

define hidden i32 @hiddenfn(i32 %x) noinline {
  %r = add i32 %x, 7
  ret i32 %r
}

define protected i32 @protectedfn(i32 %x) noinline {
  %r = call i32 @internal(i32 %x)
  ret i32 %r
}

;; Keeps the optimizer of the clang run from dropping unused definitions.
@llvm.used = appending global [2 x ptr] [ptr @linkonce, ptr @internal], section "llvm.metadata"
