/* Every encoding of call and ret the checker has to recognise, each call
 * matched by its ret: all returns are predicted correctly. With FAR_CALL, a
 * far call and far return at the end, not modelled: they count as unknown
 * (QEMU 7.2 cannot run them: the program dies of SIGSEGV under it).
 *   calls:   e8; ff /2 with a register, a REX.B register, memory, SIB
 *            memory, RIP-relative memory; notrack (3e ff /2); REX.W ff /2
 *   returns: c3, c2 imm16, rep ret (f3 c3), bnd ret (f2 c3), REX.W ret
 * 12 near calls, 12 near returns, all correct; unknown 2 (lcall, lret). */
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	plain_ret		/* e8 / c3 */
	leaq	plain_ret(%rip), %rax
	call	*%rax			/* ff d0 */
	leaq	plain_ret(%rip), %r11
	call	*%r11			/* 41 ff d3 */
	pushq	%r11
	call	*(%rsp)			/* ff 14 24 */
	popq	%r11
	leaq	target(%rip), %rbx
	movl	$0, %ecx
	call	*(%rbx,%rcx,8)		/* ff 14 cb */
	call	*target(%rip)		/* ff 15 disp32 */
	notrack call	*%rax		/* 3e ff d0 */
	.byte	0x48, 0xff, 0xd0	/* rex.w call *%rax */
	pushq	$0			/* an argument for ret $8 */
	call	ret_imm			/* c2 08 00 */
	call	rep_ret			/* f3 c3 */
	call	bnd_ret			/* f2 c3 */
	call	rex_ret			/* 48 c3 */
#ifdef FAR_CALL
	/* The far call (m16:32 form, 32-bit operand size) and its far
	 * return: neither touches the model. */
	lcall	*farptr(%rip)		/* ff 1d disp32 */
#endif
	movl	$60, %eax		/* exit(0) */
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

plain_ret:
	ret
ret_imm:
	ret	$8
rep_ret:
	rep ret
bnd_ret:
	.byte	0xf2, 0xc3		/* bnd ret */
rex_ret:
	.byte	0x48, 0xc3		/* rex.w ret */
far_target:
	lret				/* cb: 32-bit far return */

	.data
	.p2align 3
target:
	.quad	plain_ret
farptr:
	.long	far_target
	.word	0x33			/* the 64-bit user code segment */

	.section .note.GNU-stack, "", @progbits
