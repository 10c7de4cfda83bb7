; -stats (clang: -mllvm -stats) prints the pass's counters at exit, in LLVM's
; format, although Debian's release LLVM compiles STATISTIC counters out;
; without -stats nothing is printed.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -stats %s -o /dev/null \
; RUN:   2>&1 | FileCheck %s
; RUN: %clang_rsb -mllvm -stats -target x86_64-linux-gnu -O2 -fno-pic \
; RUN:   -Wno-override-module -c -x ir %s -o /dev/null 2>&1 | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o /dev/null 2>&1 \
; RUN:   | count 0

; CHECK:      ... rsb-stuff Statistics Collected ...
; CHECK:      2 x86-rsb-stuff - Functions given an accounting prefix
; CHECK-NEXT: 1 x86-rsb-stuff - Direct calls sent to an accounting entry
; CHECK-NEXT: 2 x86-rsb-stuff - Returns accounted (in place or by the thunk)
; CHECK-NEXT: 1 x86-rsb-stuff - Credit resets

define internal i32 @leaf(i32 %x) noinline {
  %r = add i32 %x, 1
  ret i32 %r
}

declare i32 @puts(ptr)

define i32 @f(i32 %x, ptr %s) {
  %a = call i32 @leaf(i32 %x)
  %b = call i32 @puts(ptr %s)
  %c = add i32 %a, %b
  ret i32 %c
}
