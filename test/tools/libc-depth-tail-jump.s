# A jump to another function (a tail call) adds no level: the callee returns
# for the caller; conditional tail jumps count the same way. So t_jmp = d2,
# not d2 + 1.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}d2 2 2{{$}}
# CHECK: {{^}}t_call 3 3{{$}}
# CHECK-NEXT: {{^}}t_jcc 2 2{{$}}
# CHECK-NEXT: {{^}}t_jmp 2 2{{$}}
	.include "depth-fn.s"

	fn	d0
	ret
	endfn	d0

	fn	d1
	call	d0_l
	ret
	endfn	d1

	fn	d2
	call	d1_l
	ret
	endfn	d2

	fn	t_jmp
	jmp	d2_l
	endfn	t_jmp

	fn	t_jcc
	test	%edi, %edi
	jne	d2_l
	ret
	endfn	t_jcc

	fn	t_call
	call	t_jmp_l
	ret
	endfn	t_call
