# A refill's own 16 calls are not counted on the exact counter. f jumps to
# a refill thunk (any function named like the runtime's: here
# __rsb_refill_return) which fills the RSB and returns for f, and then one
# return without a call (push; ret) follows. The exact counter (one leading
# one at the start) has 6 after `call f`, 1 after f's return and none after
# the push-ret: 1 ideal refill, beside the program's 1 refill. Had the fill's
# calls been counted, f's return would leave 59 and the push-ret 54: none.
#include "fill.h"

	.text
	.globl	_start
	.type	_start, @function
_start:
	call	f
	leaq	1f(%rip), %rax
	pushq	%rax
	ret
1:
	movl	$60, %eax		# exit(0)
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

	.type	f, @function
f:
	jmp	__rsb_refill_return
	.size	f, . - f

	.type	__rsb_refill_return, @function
__rsb_refill_return:
	FILL_RETURN_BUFFER
	ret
	.size	__rsb_refill_return, . - __rsb_refill_return

	.section .note.GNU-stack, "", @progbits
