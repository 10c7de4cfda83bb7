# An indirect call (`call *`) can go anywhere: unbounded, and so is every
# function that calls or tail-jumps to one.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - --explain via_jump | FileCheck %s
# CHECK: {{^}}calls_ptr unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}calls_ptr_mem unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}via_jump unbounded unbounded{{$}}
# CHECK: # explain via_jump depth: unbounded: via_jump -via-> calls_ptr: indirect call `call *%rsi` at 0x{{[0-9a-f]+}}
	.include "depth-fn.s"

	fn	calls_ptr
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	*%rsi
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_ptr

	fn	calls_ptr_mem
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	*8(%rdi)
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_ptr_mem

	fn	via_jump
	jmp	calls_ptr_l
	endfn	via_jump
