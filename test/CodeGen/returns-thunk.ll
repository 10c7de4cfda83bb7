; Every `ret` of an instrumented function becomes `jmp __rsb_return_thunk`,
; in every block that returns; no `ret` instruction is left.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefix=CLANG
; RUN: %clang_rsb -target x86_64-linux-gnu -O0 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefix=CLANG
;; Without the plugin, the same function has four returns.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

declare void @ext()

; CHECK-LABEL: {{^}}multi:
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:       # %a
; CHECK:         movl $10, %eax
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    jmp __rsb_return_thunk # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:       # %b
; CHECK:         movl $20, %eax
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    jmp __rsb_return_thunk # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:       # %c
; CHECK-NEXT:    movl $30, %eax
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    jmp __rsb_return_thunk # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:       # %d
; CHECK-NEXT:    xorl %eax, %eax
; CHECK-NEXT:    popq %rcx
; CHECK-NEXT:    jmp __rsb_return_thunk # TAILCALL
; CHECK-NOT:     {{^[[:space:]]+retq}}
; CHECK:       .Lfunc_end

; OFF-LABEL:   {{^}}multi:
; OFF-COUNT-4:   {{^[[:space:]]+retq$}}
; OFF-NOT:       __rsb
; OFF:         .Lfunc_end

; CLANG-LABEL: {{^}}multi:
; CLANG-NOT:     {{^[[:space:]]+retq}}
; CLANG:         jmp __rsb_return_thunk
; CLANG-NOT:     {{^[[:space:]]+retq}}
; CLANG:       .Lfunc_end

; OBJ-LABEL: <multi>:
; OBJ-NOT:     c3 retq
; OBJ:         e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_return_thunk-0x4
; OBJ-NOT:     c3 retq
; OBJ:         e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_return_thunk-0x4
; OBJ-NOT:     c3 retq
; OBJ:         e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_return_thunk-0x4
; OBJ-NOT:     c3 retq
; OBJ:         e9 00 00 00 00 jmp
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_return_thunk-0x4
; OBJ-NOT:     {{c3|R_X86_64}}

define i32 @multi(i32 %x) nounwind {
entry:
  switch i32 %x, label %d [ i32 0, label %a
                            i32 1, label %b
                            i32 2, label %c ]
a:
  call void @ext()
  ret i32 10
b:
  call void @ext()
  call void @ext()
  ret i32 20
c:
  ret i32 30
d:
  ret i32 0
}
