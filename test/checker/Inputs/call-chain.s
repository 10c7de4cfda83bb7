# A chain of 20 nested calls, then 20 returns, and nothing else: no libc,
# no dynamic loader. The 16-entry RSB keeps the innermost 16 return
# addresses, so the first 16 returns are predicted correctly and the last
# 4 find it empty: 20 calls, 20 returns, 16 correct, 4 underflows.
	.text
	.globl	_start
	.type	_start, @function
_start:
	movl	$20, %edi
	call	nest
	movl	$60, %eax		# exit(0)
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

# nest(n): n nested calls including this one, then n returns.
	.type	nest, @function
nest:
	decl	%edi
	jz	1f
	call	nest
1:
	ret
	.size	nest, . - nest

	.section .note.GNU-stack, "", @progbits
