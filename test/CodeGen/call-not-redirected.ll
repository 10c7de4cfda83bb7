; Calls that may reach code returning with a plain `ret` stay uncounted:
; they keep their original target. That covers calls through a function
; pointer, library functions known to TargetLibraryInfo (libc is never
; instrumented), libcalls emitted for intrinsics, extern_weak declarations
; (may be null / absent), interposable definitions (weak, linkonce: another
; object's copy may win), returns_twice functions and the runtime's own
; __rsb* symbols. -x86-rsb-stuff-extern-entries=false also leaves external
; callees alone. The counter cannot see what such a callee does, so each of
; these calls is followed by a credit reset (`callq __rsb_reset_depth`),
; except calls to known leaves (memcpy, the runtime's own functions);
; reset-after-libc-call.ll has the reset rules in detail.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,EXEC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefixes=CHECK,PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-extern-entries=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=NOEXT
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefixes=CHECK,EXEC

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare ptr @memcpy(ptr, ptr, i64)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare extern_weak void @ext_weak()
declare i32 @my_setjmp(ptr) returns_twice
declare void @__rsb_helper()
declare void @ext()

define weak void @weak_def() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define linkonce void @linkonce_any() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

; In an executable the runtime's copy of the mark check makes the call
; (indirect-call-shared-call.ll); shared-object code has no marks.
; CHECK-LABEL: {{^}}indirect:
; CHECK-NOT:     __rsb_entry
; EXEC:          movq %rdi, %r11
; EXEC-NEXT:     callq __rsb_icall_r11{{$}}
; PIC:           callq *%rdi
; PIC-NEXT:      callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define void @indirect(ptr %fp) {
  call void %fp()
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}libc:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq printf@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         callq malloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         callq memcpy@PLT{{$}}
; CHECK-NOT:     __rsb
; CHECK:         {{movq __rsb_depth@GOTTPOFF\(%rip\), %r11|shlq \$5, %fs:__rsb_depth@TPOFF}}
; CHECK:         je __rsb_refill_return
define ptr @libc(ptr %fmt, ptr %src, i64 %n) {
  %p = call i32 (ptr, ...) @printf(ptr %fmt)
  %m = call ptr @malloc(i64 %n)
  %c = call ptr @memcpy(ptr %m, ptr %src, i64 %n)
  call void asm sideeffect "", ""()
  ret ptr %m
}

; CHECK-LABEL: {{^}}intrinsic:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq memcpy@PLT{{$}}
; CHECK-NOT:     __rsb
; CHECK:         {{movq __rsb_depth@GOTTPOFF\(%rip\), %r11|shlq \$5, %fs:__rsb_depth@TPOFF}}
; CHECK:         je __rsb_refill_return
define void @intrinsic(ptr %d, ptr %s, i64 %n) {
  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %s, i64 %n, i1 false)
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}maybe_absent:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq ext_weak@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define void @maybe_absent() {
  call void @ext_weak()
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}interposable:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq weak_def@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NEXT:    callq linkonce_any@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define void @interposable() {
  call void @weak_def()
  call void @linkonce_any()
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: {{^}}twice:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq my_setjmp@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK:         je __rsb_refill_return
define i32 @twice(ptr %buf) {
  %r = call i32 @my_setjmp(ptr %buf)
  call void asm sideeffect "", ""()
  ret i32 %r
}

; CHECK-LABEL: {{^}}runtime:
; CHECK-NOT:     __rsb_entry
; CHECK:         callq __rsb_helper@PLT{{$}}
; CHECK-NOT:     __rsb_entry
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return
define void @runtime() {
  call void @__rsb_helper()
  call void asm sideeffect "", ""()
  ret void
}

; NOEXT-LABEL: {{^}}externs:
; NOEXT:         callq __rsb_entry.leaf{{$}}
; NOEXT-NEXT:    callq ext@PLT{{$}}
; NOEXT-NEXT:    callq __rsb_reset_depth{{$}}
; NOEXT:         je __rsb_refill_return
; CHECK-LABEL: {{^}}externs:
; CHECK:         callq __rsb_entry.leaf{{$}}
; CHECK-NEXT:    callq __rsb_entry.ext@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return
define void @externs() {
  call void @leaf()
  call void @ext()
  call void asm sideeffect "", ""()
  ret void
}

; OBJ-LABEL: <libc>:
; OBJ:         R_X86_64_PLT32 printf-0x4
; OBJ:         R_X86_64_PLT32 malloc-0x4
; OBJ:         R_X86_64_PLT32 memcpy-0x4
; OBJ-LABEL: <maybe_absent>:
; OBJ:         R_X86_64_PLT32 ext_weak-0x4
; OBJ-LABEL: <interposable>:
; OBJ:         R_X86_64_PLT32 weak_def-0x4
; OBJ-NEXT:    callq
; OBJ-NEXT:    R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-NEXT:    callq
; OBJ-NEXT:    R_X86_64_PLT32 linkonce_any-0x4
; OBJ-NEXT:    callq
; OBJ-NEXT:    R_X86_64_PLT32 __rsb_reset_depth-0x4
