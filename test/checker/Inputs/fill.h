/* The runtime's fill (FILL_RETURN_BUFFER in runtime/rsb_thunks.S): 16
 * calls whose return addresses point at int3, dropped from the stack
 * again. rsb-check counts them as one refill in a function named like the
 * runtime's refill thunks. */
	.macro	FILL_RETURN_BUFFER
	.rept	16
	call	1f
	int3
1:
	.endr
	addq	$128, %rsp
	.endm
