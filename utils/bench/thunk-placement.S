/*===- thunk-placement.S - The return thunk at chosen code addresses -----===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * For utils/bench/run --sequences only: copies of the runtime's return
 * thunk hot path (runtime/rsb_thunks.S, local-exec form) placed at chosen
 * offsets from a 64-byte boundary, to measure whether the thunk's alignment
 * matters on this machine. Programs reach them with
 * -x86-rsb-stuff-return-thunk=NAME; the refill is the runtime's
 * __rsb_refill_return, reached through a local jmp so that the hot path
 * keeps the runtime's 2-byte jz (14 bytes in all).
 *
 *===----------------------------------------------------------------------===*/

/*
 * A return thunk whose first byte lies OFFSET bytes after a 64-byte
 * boundary: 0 starts a cache line, 8 straddles a 16-byte fetch block, 56
 * straddles two cache lines.
 */
.macro PLACED_RETURN_THUNK name, offset
	.p2align 6, 0xcc
	.skip	\offset, 0xcc
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	shlq	$5, %fs:__rsb_depth@tpoff
	jz	1f
	ret
	int3
1:
	jmp	__rsb_refill_return	/* refills, credits and returns */
	.size	\name, . - \name
.endm

	.text
PLACED_RETURN_THUNK __rsb_return_thunk_line0, 0
PLACED_RETURN_THUNK __rsb_return_thunk_split16, 8
PLACED_RETURN_THUNK __rsb_return_thunk_split64, 56

	.section .note.GNU-stack, "", @progbits
