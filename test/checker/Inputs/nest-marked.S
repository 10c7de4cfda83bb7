# DEPTH (20) nested calls of nest, then DEPTH plain returns (4 of 20
# underflow), ROUNDS (1) times, without libc or a loader. Built with
# -DINSTRUMENTED, an __rsb_entry.nest symbol in front of nest makes it look
# like a function rsb-stuff compiled, which is all rsb-check goes by to tell
# its code from code it did not compile.
#ifndef DEPTH
#define DEPTH 20
#endif
#ifndef ROUNDS
#define ROUNDS 1
#endif
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

#ifdef INSTRUMENTED
	.type	__rsb_entry.nest, @function
__rsb_entry.nest:
	nop
	.size	__rsb_entry.nest, . - __rsb_entry.nest
#endif

	.type	nest, @function
nest:
	decl	%edi
	jz	1f
	call	nest
1:
	ret
	.size	nest, . - nest

	.section .note.GNU-stack, "", @progbits
