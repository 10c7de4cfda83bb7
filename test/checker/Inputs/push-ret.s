# A `push target; ret` with one entry in the RSB: the ret pops the entry the
# call left, which predicts the instruction after the call, but goes to the
# pushed target: 1 call, 1 return, 1 mispredicted. The way back is a jmp,
# which does not touch the RSB.
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	f
	movl	$60, %eax		# exit(0)
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

	.type	f, @function
f:
	leaq	1f(%rip), %rax
	pushq	%rax
	ret				# mispredicted
1:
	popq	%rax			# the return address of `call f`
	jmp	*%rax
	.size	f, . - f

	.section .note.GNU-stack, "", @progbits
