; The prefix lies outside f: f's value moves past the prefix but its ELF size
; stays that of its body. A function without returns keeps exactly the size
; it has without the plugin; each `ret` (1 byte) becomes a 5-byte
; `jmp __rsb_return_thunk`, and nothing else grows.

;; The addresses and sizes below are those of the thunk form of returns.
; RUN: llc -mtriple=x86_64-linux-gnu -filetype=obj %s -o %t.base.o
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -filetype=obj %s -o %t.rsb.o
; RUN: llvm-readelf -s %t.base.o > %t.txt
; RUN: echo "--- instrumented ---" >> %t.txt
; RUN: llvm-readelf -s %t.rsb.o >> %t.txt
; RUN: FileCheck %s < %t.txt
;; No __rsb_ symbol without the plugin, in a run of its own: FileCheck
;; applies no CHECK-NOT between the matches of a -DAG group.
; RUN: FileCheck %s --check-prefix=BASE < %t.txt

;; The sizes without the plugin.
; CHECK-DAG:   [[#%d,NORET:]] FUNC GLOBAL DEFAULT [[#]] noret{{$}}
; CHECK-DAG:   [[#%d,SPIN:]] FUNC GLOBAL DEFAULT [[#]] spin{{$}}
; CHECK-DAG:   [[#%d,ONE:]] FUNC GLOBAL DEFAULT [[#]] oneret{{$}}
; CHECK-DAG:   [[#%d,TWO:]] FUNC GLOBAL DEFAULT [[#]] tworets{{$}}
; BASE-NOT:    __rsb_
; BASE:        --- instrumented ---
; CHECK-LABEL: --- instrumented ---
; CHECK-DAG:   [[#%x,NR:]] [[#NORET]] FUNC GLOBAL DEFAULT [[#]] noret{{$}}
; CHECK-DAG:   [[#%.16x,NR-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.noret{{$}}
; CHECK-DAG:   [[#%x,SP:]] [[#SPIN]] FUNC GLOBAL DEFAULT [[#]] spin{{$}}
; CHECK-DAG:   [[#%.16x,SP-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.spin{{$}}
; CHECK-DAG:   [[#%x,OR:]] [[#ONE+4]] FUNC GLOBAL DEFAULT [[#]] oneret{{$}}
; CHECK-DAG:   [[#%.16x,OR-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.oneret{{$}}
; CHECK-DAG:   [[#%x,TR:]] [[#TWO+8]] FUNC GLOBAL DEFAULT [[#]] tworets{{$}}
; CHECK-DAG:   [[#%.16x,TR-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.tworets{{$}}

declare void @abort() noreturn nounwind

define void @noret() noreturn nounwind {
  call void @abort()
  unreachable
}

define void @spin() noreturn nounwind {
entry:
  br label %loop
loop:
  br label %loop
}

define i64 @oneret(i64 %a, i64 %b) nounwind {
  %m = mul i64 %a, %b
  ret i64 %m
}

define i32 @tworets(i32 %x) nounwind {
entry:
  %c = icmp sgt i32 %x, 5
  br i1 %c, label %big, label %small
big:
  %b = mul i32 %x, 3
  ret i32 %b
small:
  %s = add i32 %x, 9
  ret i32 %s
}
