# Tail aliases in the form of rsb-ld's fallback frame, written by hand: the
# frame (lea -8; call f; lea 8; jmp __rsb_reset_depth), and frames that end
# elsewhere than in the reset.
	.text
	.globl	plain_f
	.type	plain_f, @function
plain_f:
	xorl	%eax, %eax
	ret
	.size	plain_f, .-plain_f

	.weak	__rsb_tail.plain_f
	.hidden	__rsb_tail.plain_f
	.type	__rsb_tail.plain_f, @function
__rsb_tail.plain_f:
	leaq	-8(%rsp), %rsp
	call	plain_f
	leaq	8(%rsp), %rsp
	jmp	__rsb_reset_depth
	.size	__rsb_tail.plain_f, .-__rsb_tail.plain_f

	.globl	__rsb_tail.bad_target
	.hidden	__rsb_tail.bad_target
	.type	__rsb_tail.bad_target, @function
__rsb_tail.bad_target:
	leaq	-8(%rsp), %rsp
	call	plain_f
	leaq	8(%rsp), %rsp
	jmp	plain_f
	.size	__rsb_tail.bad_target, .-__rsb_tail.bad_target

	.globl	__rsb_tail.bad_offset
	.hidden	__rsb_tail.bad_offset
	.type	__rsb_tail.bad_offset, @function
__rsb_tail.bad_offset:
	leaq	-16(%rsp), %rsp
	call	plain_f
	leaq	8(%rsp), %rsp
	jmp	__rsb_reset_depth
	.size	__rsb_tail.bad_offset, .-__rsb_tail.bad_offset
	.section	.note.GNU-stack,"",@progbits
