; Every instrumented function that other objects can reach gets the tail
; alias __rsb_tail.<f>: a 2-byte `jmp f` over the accounting, right before
; the entry, with f's type, binding and visibility, at an address of its own
; (symbolizers must name f's address f). Other objects tail-jump there; a
; static function gets none. Weak and inline functions also get the local,
; zero-sized marker __rsb_body.<f> at f, for rsb-verify.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefix=ASM --implicit-check-not=__rsb_tail.static_fn
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-readelf -s %t.o > %t.syms
; RUN: FileCheck %s --check-prefix=SYM < %t.syms
;; Apart from the SYM-DAG group: FileCheck applies no --implicit-check-not
;; from a group's first match to the next plain CHECK (here, to the end).
; RUN: FileCheck %s --check-prefix=NOTAIL \
; RUN:   --implicit-check-not=__rsb_tail.static_fn < %t.syms
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -c -x ir %s -o %t.clang.o
; RUN: llvm-readelf -s %t.clang.o > %t.clang.syms
; RUN: FileCheck %s --check-prefix=SYM < %t.clang.syms
; RUN: FileCheck %s --check-prefix=NOTAIL \
; RUN:   --implicit-check-not=__rsb_tail.static_fn < %t.clang.syms

; ASM-LABEL: .type __rsb_tail.ext_fn,@function
; ASM-NEXT:    .globl __rsb_tail.ext_fn
; ASM-NEXT:  __rsb_tail.ext_fn:
; ASM-NEXT:    .byte 235 # jmp ext_fn
; ASM-NEXT:    .byte 10
; ASM-NEXT:    .size __rsb_tail.ext_fn, 2
; ASM-NEXT:    .type __rsb_entry.ext_fn,@function
; ASM-NEXT:    .globl __rsb_entry.ext_fn
; ASM-NEXT:  __rsb_entry.ext_fn:
; ASM:         .size __rsb_entry.ext_fn, ext_fn-__rsb_entry.ext_fn
; ASM-NEXT:  ext_fn:
; ASM-LABEL: __rsb_entry.static_fn:
; ASM:         .size __rsb_entry.static_fn, static_fn-__rsb_entry.static_fn
; ASM-NEXT:  static_fn:
; ASM-LABEL: .type __rsb_tail.weak_fn,@function
; ASM-NEXT:    .weak __rsb_tail.weak_fn
; ASM-NEXT:  __rsb_tail.weak_fn:
; ASM:         .size __rsb_entry.weak_fn, weak_fn-__rsb_entry.weak_fn
; ASM-NEXT:    .type __rsb_body.weak_fn,@function
; ASM-NEXT:  __rsb_body.weak_fn:
; ASM-NEXT:  weak_fn:
; ASM-LABEL: .type __rsb_tail.hidden_fn,@function
; ASM-NEXT:    .globl __rsb_tail.hidden_fn
; ASM-NEXT:    .hidden __rsb_tail.hidden_fn
; ASM-NEXT:  __rsb_tail.hidden_fn:
; ASM:         .size __rsb_entry.hidden_fn, hidden_fn-__rsb_entry.hidden_fn
; ASM-NEXT:  hidden_fn:

; SYM-DAG: {{0+}}[[#%x,EXT:]] [[#%d,EXT_SIZE:]] FUNC GLOBAL DEFAULT [[#%d,SEC:]] ext_fn{{$}}
; SYM-DAG: [[#%.16x,EXT-12]] 2 FUNC GLOBAL DEFAULT [[#SEC]] __rsb_tail.ext_fn{{$}}
; SYM-DAG: {{0+}}[[#%x,WK:]] [[#%d,WK_SIZE:]] FUNC WEAK DEFAULT [[#SEC]] weak_fn{{$}}
; SYM-DAG: [[#%.16x,WK-12]] 2 FUNC WEAK DEFAULT [[#SEC]] __rsb_tail.weak_fn{{$}}
; SYM-DAG: [[#%.16x,WK]] 0 FUNC LOCAL DEFAULT [[#SEC]] __rsb_body.weak_fn{{$}}
; SYM-DAG: {{0+}}[[#%x,LO:]] [[#%d,LO_SIZE:]] FUNC WEAK DEFAULT [[#SEC]] linkonce_fn{{$}}
; SYM-DAG: [[#%.16x,LO-12]] 2 FUNC WEAK DEFAULT [[#SEC]] __rsb_tail.linkonce_fn{{$}}
; SYM-DAG: [[#%.16x,LO]] 0 FUNC LOCAL DEFAULT [[#SEC]] __rsb_body.linkonce_fn{{$}}
; SYM-DAG: {{0+}}[[#%x,HID:]] [[#%d,HID_SIZE:]] FUNC GLOBAL HIDDEN [[#SEC]] hidden_fn{{$}}
; SYM-DAG: [[#%.16x,HID-12]] 2 FUNC GLOBAL HIDDEN [[#SEC]] __rsb_tail.hidden_fn{{$}}
; SYM-DAG: {{0+}}[[#%x,PROT:]] [[#%d,PROT_SIZE:]] FUNC GLOBAL PROTECTED [[#SEC]] protected_fn{{$}}
; SYM-DAG: [[#%.16x,PROT-12]] 2 FUNC GLOBAL PROTECTED [[#SEC]] __rsb_tail.protected_fn{{$}}
; SYM-DAG: FUNC LOCAL DEFAULT [[#SEC]] static_fn{{$}}
; SYM-DAG: FUNC LOCAL DEFAULT [[#SEC]] __rsb_entry.static_fn{{$}}

; NOTAIL: Symbol table '.symtab' contains

define i32 @ext_fn(i32 %x) noinline {
  %r = add i32 %x, 1
  ret i32 %r
}

define internal i32 @static_fn(i32 %x) noinline {
  %r = add i32 %x, 2
  ret i32 %r
}

define weak i32 @weak_fn(i32 %x) noinline {
  %r = add i32 %x, 3
  ret i32 %r
}

define linkonce_odr i32 @linkonce_fn(i32 %x) noinline {
  %r = add i32 %x, 4
  ret i32 %r
}

define hidden i32 @hidden_fn(i32 %x) noinline {
  %r = add i32 %x, 5
  ret i32 %r
}

define protected i32 @protected_fn(i32 %x) noinline {
  %a = call i32 @static_fn(i32 %x)
  %b = call i32 @linkonce_fn(i32 %a)
  ret i32 %b
}
