; -fsplit-stack's prologue calls __morestack when the stack segment is
; full, and __morestack runs the rest of the function at the call's return
; address + 1: past the 1-byte `ret` that must follow the call, to which it
; comes back on the old stack. The call is uncounted and __morestack goes
; deep, so the credit is cleared, but in front of the call: nothing may come
; between `callq __morestack` and its `retq`, which stays a plain return
; (the function's body, entered by __morestack, returns through the check).

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr --no-show-raw-insn %t.o | FileCheck %s --check-prefix=OBJ

declare void @use(ptr)

define void @big_frame() "split-stack" {
; CHECK-LABEL: big_frame:
; CHECK:         movl $4104, %r10d
; CHECK-NEXT:    movl $0, %r11d
; CHECK-NEXT:    callq __rsb_reset_depth
; CHECK-NEXT:    callq __morestack
; CHECK-NEXT:    retq
; CHECK-NOT:   __rsb_reset_depth
; CHECK:       .Lfunc_end0:
  %frame = alloca [4096 x i8]
  call void @use(ptr %frame)
  ret void
}

; OBJ-LABEL: <big_frame>:
; OBJ:         R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-NEXT:    callq {{.*}} <big_frame+{{.*}}>
; OBJ-NEXT:      R_X86_64_PLT32 __morestack-0x4
; OBJ-NEXT:    retq
