/*===- rsb_signal_fill.S - The RSB fill after a signal handler ------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Called by the signal wrapper (rsb_signal.c) after the handler and the
 * credit's reset. The code the signal interrupted may be between a check
 * and the `ret` it lets through (the in-place return check, the return
 * thunk, __rsb_count_call, __rsb_tail_account): that `ret` is not checked
 * again, and the handler, plain code that went deep, may have drained the
 * RSB. Filled, the RSB predicts it into a trap, never from the BTB. No
 * credit is given: the reset stays. A function of its own in a file of its
 * own, linked into the executables' runtime and the shared one, so that
 * rsb-check can tell its calls, which never return, from the wrapper's.
 * Clobbers the flags, as a C call may.
 *
 *===----------------------------------------------------------------------===*/

#include "rsb_fill.h"
#include "rsb_property_note.h"

	.text
	.p2align 4, 0xcc
	.globl	__rsb_signal_fill
	.hidden	__rsb_signal_fill
	.type	__rsb_signal_fill, @function
__rsb_signal_fill:
	.cfi_startproc
	FILL_RETURN_BUFFER
	ret
	int3
	.cfi_endproc
	.size	__rsb_signal_fill, . - __rsb_signal_fill

	CET_PROPERTY_NOTE

	.section .note.GNU-stack, "", @progbits
