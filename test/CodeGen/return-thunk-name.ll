; -x86-rsb-stuff-return-thunk=<name> changes the symbol that returns jump
; to, and asks for that jump: the default in-place check of returns gives
; way to it. Nothing else refers to the default thunk or to the refill.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-thunk=my_thunk %s -o - \
; RUN:   | FileCheck %s --implicit-check-not=__rsb_return_thunk \
; RUN:     --implicit-check-not=__rsb_refill_return
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-thunk=my_thunk -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o \
; RUN:   | FileCheck %s --check-prefix=OBJ --implicit-check-not=__rsb_return_thunk \
; RUN:     --implicit-check-not=__rsb_refill_return
; RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-thunk=my_thunk \
; RUN:   -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - \
; RUN:   | FileCheck %s --implicit-check-not=__rsb_return_thunk \
; RUN:     --implicit-check-not=__rsb_refill_return

; CHECK-LABEL: {{^}}two:
; CHECK:         jmp my_thunk # TAILCALL
; CHECK:         jmp my_thunk # TAILCALL
; CHECK:       .Lfunc_end

; OBJ-LABEL: <two>:
; OBJ:         R_X86_64_PLT32 my_thunk-0x4
; OBJ:         R_X86_64_PLT32 my_thunk-0x4

define i32 @two(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 5
  br i1 %c, label %big, label %small
big:
  %b = call i32 asm sideeffect "# big $0", "=r,0"(i32 %x)
  ret i32 %b
small:
  %s = call i32 asm sideeffect "# small $0", "=r,0"(i32 %x)
  ret i32 %s
}
