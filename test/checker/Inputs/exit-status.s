# Exits with status 42 after one balanced call, for checking that rsb-check
# passes the program's exit status on.
	.text
	.globl	_start
	.type	_start, @function
_start:
	call	f
	movl	$60, %eax		# exit(42)
	movl	$42, %edi
	syscall
	.size	_start, . - _start

	.type	f, @function
f:
	ret
	.size	f, . - f

	.section .note.GNU-stack, "", @progbits
