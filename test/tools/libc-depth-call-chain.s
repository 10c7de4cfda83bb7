# Direct calls add one level each: d3 calls d2 calls d1 calls the leaf d0.
# A function that calls both a shallow and a deep callee takes the maximum.
# The calls go to local labels (as glibc calls its hidden aliases): a call
# to an exported symbol would go through the PLT (libc-depth-plt.s).
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}d0 0 0{{$}}
# CHECK-NEXT: {{^}}d1 1 1{{$}}
# CHECK-NEXT: {{^}}d2 2 2{{$}}
# CHECK-NEXT: {{^}}d3 3 3{{$}}
# CHECK-NEXT: {{^}}mixed 3 3{{$}}

	.text
	.macro	fn name
	.globl	\name
	.type	\name,@function
\name:
\name\()_l:
	.cfi_startproc
	.endm
	.macro	endfn name
	.cfi_endproc
	.size	\name, .-\name
	.endm

	fn	d0
	ret
	endfn	d0

	fn	d1
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	d0_l
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	d1

	fn	d2
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	d1_l
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	d2

	fn	d3
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	d2_l
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	d3

	fn	mixed
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	d0_l
	test	%edi, %edi
	je	1f
	call	d2_l
1:	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	mixed
