/*
 * reset_with(flags): calls __rsb_reset_depth with every general register
 * but %rsp set to its own pattern and RFLAGS set to flags, and stores what
 * the registers, %rsp and RFLAGS are right after it returns in
 * reset_after[] (in the order of reset_names in reset-keeps-registers.c;
 * %rsp as its distance from its value before the call). Hidden: the
 * check in the same module reads them.
 */
	.text
	.globl	reset_with
	.hidden	reset_with
	.type	reset_with,@function
reset_with:
	.cfi_startproc
	pushq	%rbx
	pushq	%rbp
	pushq	%r12
	pushq	%r13
	pushq	%r14
	pushq	%r15
	pushq	%rdi
	movabsq	$0x1010101010101010, %rax
	movabsq	$0x2020202020202020, %rbx
	movabsq	$0x3030303030303030, %rcx
	movabsq	$0x4040404040404040, %rdx
	movabsq	$0x5050505050505050, %rsi
	movabsq	$0x6060606060606060, %rdi
	movabsq	$0x7070707070707070, %rbp
	movabsq	$0x8080808080808080, %r8
	movabsq	$0x9090909090909090, %r9
	movabsq	$0xa0a0a0a0a0a0a0a0, %r10
	movabsq	$0xb0b0b0b0b0b0b0b0, %r11
	movabsq	$0xc0c0c0c0c0c0c0c0, %r12
	movabsq	$0xd0d0d0d0d0d0d0d0, %r13
	movabsq	$0xe0e0e0e0e0e0e0e0, %r14
	movabsq	$0xf0f0f0f0f0f0f0f0, %r15
	popfq				/* the flags argument */
	movq	%rsp, reset_rsp(%rip)	/* mov writes no flag */
	call	__rsb_reset_depth
	pushfq
	movq	%rax, reset_after+0*8(%rip)
	movq	%rbx, reset_after+1*8(%rip)
	movq	%rcx, reset_after+2*8(%rip)
	movq	%rdx, reset_after+3*8(%rip)
	movq	%rsi, reset_after+4*8(%rip)
	movq	%rdi, reset_after+5*8(%rip)
	movq	%rbp, reset_after+6*8(%rip)
	movq	%r8, reset_after+7*8(%rip)
	movq	%r9, reset_after+8*8(%rip)
	movq	%r10, reset_after+9*8(%rip)
	movq	%r11, reset_after+10*8(%rip)
	movq	%r12, reset_after+11*8(%rip)
	movq	%r13, reset_after+12*8(%rip)
	movq	%r14, reset_after+13*8(%rip)
	movq	%r15, reset_after+14*8(%rip)
	popq	%rax
	movq	%rax, reset_after+15*8(%rip)
	movq	%rsp, %rax
	subq	reset_rsp(%rip), %rax
	movq	%rax, reset_after+16*8(%rip)
	cld
	popq	%r15
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbp
	popq	%rbx
	ret
	.cfi_endproc
	.size	reset_with, .-reset_with

	.bss
	.p2align 3
	.globl	reset_after
	.hidden	reset_after
	.type	reset_after,@object
reset_after:
	.zero	17*8
	.size	reset_after, 17*8
	.local	reset_rsp
reset_rsp:
	.zero	8

	.section .note.GNU-stack,"",@progbits
