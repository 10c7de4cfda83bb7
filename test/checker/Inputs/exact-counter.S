# ROUNDS times nest(DEPTH): DEPTH nested calls, then DEPTH returns, without
# libc or a loader, for the exact counter (model.c). It starts at 1 << 63
# (one leading one); a call adds 5 leading ones (at most 64), a return
# takes 5 away, and a return that leaves none refills and stores 64:
#   DEPTH 12: 61 ones after the calls, 1 after the returns: no refill;
#   DEPTH 13: 64 after the calls, the 13th return refills;
#   DEPTH 40: the 13th, 26th and 39th returns refill;
#   DEPTH 13, ROUNDS 2: each round's 13th return refills.
	.text
	.globl	_start
	.type	_start, @function
_start:
	movl	$ROUNDS, %ebx
1:
	movl	$DEPTH, %edi
	call	nest
	decl	%ebx
	jnz	1b
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
