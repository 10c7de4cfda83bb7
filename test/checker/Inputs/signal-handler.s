# A signal handler is entered by the kernel, not by a call, and leaves with
# a ret to its restorer. raise_usr1 sends SIGUSR1 to the process while the
# RSB holds exactly one entry, its own return address, so:
#   the handler's nest(3): 3 calls, 3 correct returns;
#   the handler's ret to the restorer pops raise_usr1's entry: mispredicted;
#   raise_usr1's ret then finds the RSB empty: underflow.
# Totals: calls 4, returns 5, correct 3, mispredicted 1, underflows 1. The
# exit status is 7 if the handler ran.
	.text
	.globl	_start
	.type	_start, @function
_start:
	movl	$13, %eax		# rt_sigaction(SIGUSR1, &act, NULL, 8)
	movl	$10, %edi
	leaq	act(%rip), %rsi
	xorl	%edx, %edx
	movl	$8, %r10d
	syscall
	call	raise_usr1
	movl	$60, %eax		# exit(handled)
	movl	handled(%rip), %edi
	syscall
	.size	_start, . - _start

	.type	raise_usr1, @function
raise_usr1:
	movl	$39, %eax		# getpid()
	syscall
	movl	%eax, %edi		# kill(pid, SIGUSR1): the handler runs on
	movl	$10, %esi		# the way back to user space
	movl	$62, %eax
	syscall
	ret				# underflow
	.size	raise_usr1, . - raise_usr1

	.type	handler, @function
handler:
	movl	$3, %edi
	call	nest
	movl	$7, handled(%rip)
	ret				# mispredicted: to the restorer
	.size	handler, . - handler

	.type	restorer, @function
restorer:
	movl	$15, %eax		# rt_sigreturn()
	syscall
	.size	restorer, . - restorer

# nest(n): n nested calls including this one, then n returns.
	.type	nest, @function
nest:
	decl	%edi
	jz	1f
	call	nest
1:
	ret
	.size	nest, . - nest

	.data
	.p2align 3
act:					# the kernel's struct sigaction
	.quad	handler			# sa_handler
	.quad	0x04000000		# sa_flags: SA_RESTORER
	.quad	restorer		# sa_restorer
	.quad	0			# sa_mask
handled:
	.long	0

	.section .note.GNU-stack, "", @progbits
