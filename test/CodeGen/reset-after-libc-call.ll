; In an instrumented function, a call the counter does not count (libc, a
; pointer, anything "plain") runs code whose own calls and returns the counter
; cannot see: deeper than the RSB's spare entries, they take the entries our
; credit stands for. So right after such a call the pass inserts
; `callq __rsb_reset_depth` (counter = 0, every register and the flags
; preserved). Not after:
;  - known leaves: memcpy, strlen and their family, by TLI or as libcalls
;    (llvm.memset becomes `callq memset`), and the runtime's own API
;    (rsb_depth_*, rsb_stats_*, __rsb*);
;  - calls that never return (abort, __cxa_throw): the call ends its block
;    and the block has no successors;
;  - counted calls (to an accounting entry): their return is accounted.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s --check-prefixes=CHECK,EXEC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s --check-prefixes=CHECK,PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s --check-prefixes=CHECK,EXEC
;; Without the plugin there is no reset anywhere.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF

; OFF-NOT: __rsb_reset_depth

declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare ptr @memcpy(ptr, ptr, i64)
declare i64 @strlen(ptr)
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
declare i64 @rsb_depth_read()
declare void @rsb_depth_reset()
declare ptr @rsb_depth_address()
declare void @rsb_stats_read(ptr)
declare void @rsb_stats_reset()
declare void @__rsb_runtime_helper()
declare void @abort() noreturn nounwind
declare void @__cxa_throw(ptr, ptr, ptr) noreturn
declare i32 @ext()

; CHECK-LABEL: {{^}}libc:
; CHECK:         callq printf@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK:         callq malloc@PLT{{$}}
; CHECK-NEXT:    callq __rsb_reset_depth{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq memcpy@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq strlen@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq memset@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
define ptr @libc(ptr %fmt, ptr %src, i64 %n) {
  %p = call i32 (ptr, ...) @printf(ptr %fmt)
  %m = call ptr @malloc(i64 %n)
  call void asm sideeffect "", ""()
  %c = call ptr @memcpy(ptr %m, ptr %src, i64 %n)
  call void asm sideeffect "", ""()
  %l = call i64 @strlen(ptr %m)
  call void @llvm.memset.p0.i64(ptr %src, i8 0, i64 %l, i1 false)
  call void asm sideeffect "", ""()
  ret ptr %m
}

; CHECK-LABEL: {{^}}api:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq rsb_depth_read@PLT{{$}}
; CHECK-NEXT:    movq %rax, %r{{[0-9a-z]+$}}
; CHECK-NEXT:    callq rsb_depth_reset@PLT{{$}}
; CHECK-NEXT:    callq rsb_depth_address@PLT{{$}}
; CHECK-NEXT:    movq %r{{[0-9a-z]+}}, %rdi
; CHECK-NEXT:    callq rsb_stats_read@PLT{{$}}
; CHECK-NEXT:    callq rsb_stats_reset@PLT{{$}}
; CHECK-NEXT:    callq __rsb_runtime_helper@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
define i64 @api(ptr %b) {
  %d = call i64 @rsb_depth_read()
  call void @rsb_depth_reset()
  %a = call ptr @rsb_depth_address()
  call void @rsb_stats_read(ptr %b)
  call void @rsb_stats_reset()
  call void @__rsb_runtime_helper()
  call void asm sideeffect "", ""()
  ret i64 %d
}

; In an executable, a call through a pointer goes to the runtime's copy of
; the mark check, which resets after an unmarked target
; (indirect-call-shared-call.ll); shared-object code has no marks.
; CHECK-LABEL: {{^}}indirect:
; EXEC:          movq %rdi, %r11
; EXEC-NEXT:     callq __rsb_icall_r11{{$}}
; PIC:           callq *%rdi
; PIC-NEXT:      callq __rsb_reset_depth{{$}}
; CHECK:         je __rsb_refill_return # TAILCALL
define void @indirect(ptr %fp) {
  call void %fp()
  call void asm sideeffect "", ""()
  ret void
}

;; The entry of a counted call is no reason for a reset.
; CHECK-LABEL: {{^}}counted:
; CHECK:         callq __rsb_entry.ext@PLT{{$}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return # TAILCALL
define i32 @counted() {
  %r = call i32 @ext()
  call void asm sideeffect "", ""()
  ret i32 %r
}

;; Each noreturn call is the last instruction of its function's blocks.
; CHECK-LABEL: {{^}}dies:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq abort@PLT{{$}}
; CHECK-NEXT:  .LBB[[#]]_[[#]]:
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         callq __cxa_throw@PLT{{$}}
; CHECK-NEXT:  .Lfunc_end[[#]]:
define void @dies(i32 %x) {
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  call void @abort()
  unreachable
b:
  call void @__cxa_throw(ptr null, ptr null, ptr null)
  unreachable
}

; OBJ-LABEL: <libc>:
; OBJ:         R_X86_64_PLT32 printf-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ:         R_X86_64_PLT32 malloc-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_reset_depth-0x4
; OBJ-LABEL: <api>:
