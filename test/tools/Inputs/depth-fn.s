# Macros for the libc-depth rule tests: `fn NAME` starts an exported
# function with an FDE and a local label NAME_l (a direct call target: calls
# to NAME itself go through the PLT, the symbol being preemptible);
# `endfn NAME` ends it.
	.text
	.macro	fn name
	.globl	\name
	.type	\name,@function
	.p2align 4
\name:
\name\()_l:
	.cfi_startproc
	.endm
	.macro	endfn name
	.cfi_endproc
	.size	\name, .-\name
	.endm
