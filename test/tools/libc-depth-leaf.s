# A function without calls is a leaf (depth 0), also when it makes a system
# call or branches inside itself; both columns agree when there is no PLT.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}# name depth depth-if-own-definitions [depth-once-set@once-flag]{{$}}
# CHECK-NEXT: {{^}}leaf 0 0{{$}}
# CHECK-NEXT: {{^}}leaf_loop 0 0{{$}}
# CHECK-NEXT: {{^}}leaf_syscall 0 0{{$}}
# CHECK-NOT: {{.}}

	.text
	.globl	leaf
	.type	leaf,@function
leaf:
	.cfi_startproc
	lea	1(%rdi), %rax
	ret
	.cfi_endproc
	.size	leaf, .-leaf

	.globl	leaf_loop
	.type	leaf_loop,@function
leaf_loop:
	.cfi_startproc
	xor	%eax, %eax
1:	add	%rdi, %rax
	dec	%rdi
	jne	1b
	ret
	.cfi_endproc
	.size	leaf_loop, .-leaf_loop

	.globl	leaf_syscall
	.type	leaf_syscall,@function
leaf_syscall:
	.cfi_startproc
	mov	$39, %eax
	syscall
	ret
	.cfi_endproc
	.size	leaf_syscall, .-leaf_syscall
