# Accounting entries in the shapes the verifier accepts (GOOD) and some it
# must reject (BAD in an executable, BAD_SHARED in a shared object). Linked
# with rsb-clang, which supplies __rsb_depth, the thunk and the helpers.
	.macro	PREFIX name		# in front, as the plugin emits it
	.text
	.p2align 4
	.fill	6, 1, 0xcc
	.type	__rsb_entry.\name,@function
__rsb_entry.\name:
	sarq	$5, %fs:__rsb_depth@tpoff
	.size	__rsb_entry.\name, \name-__rsb_entry.\name
	.globl	\name
	.type	\name,@function
\name:
	.endm
	.macro	THUNK name, target	# out of line: account, then jump
	.section .text.rsb_call_thunks,"ax",@progbits
	.p2align 4
	.type	__rsb_entry.\name,@function
__rsb_entry.\name:
	endbr64
	sarq	$5, %fs:__rsb_depth@tpoff
	jmp	\target
	.size	__rsb_entry.\name, .-__rsb_entry.\name
	.text
	.endm

#ifndef BAD_SHARED
	PREFIX	main
	xorl	%eax, %eax
	jmp	__rsb_return_thunk
	.size	main, .-main
#endif

#ifdef GOOD
	# -fsanitize=function data sits before the function: out of line.
	THUNK	with_data, with_data
	.p2align 4
	.quad	0xc105cafe
	.globl	with_data
	.type	with_data,@function
with_data:
	endbr64
	jmp	__rsb_return_thunk
	.size	with_data, .-with_data

	# -fcf-protection=branch: the entry starts with endbr64.
	.p2align 4
	.fill	2, 1, 0xcc
	.type	__rsb_entry.cet,@function
__rsb_entry.cet:
	endbr64
	sarq	$5, %fs:__rsb_depth@tpoff
	.size	__rsb_entry.cet, cet-__rsb_entry.cet
	.globl	cet
	.type	cet,@function
cet:
	endbr64
	jmp	__rsb_return_thunk
	.size	cet, .-cet
#endif

#ifdef BAD
	THUNK	elsewhere, main		# jumps to another function
	.p2align 4
	.globl	elsewhere
	.type	elsewhere,@function
elsewhere:
	jmp	__rsb_return_thunk
	.size	elsewhere, .-elsewhere

	THUNK	middle, middle+2	# jumps past the function's start
	.p2align 4
	.globl	middle
	.type	middle,@function
middle:
	nop
	nop
	jmp	__rsb_return_thunk
	.size	middle, .-middle

	.p2align 4			# does more than account
	.fill	5, 1, 0xcc
	.type	__rsb_entry.busy,@function
__rsb_entry.busy:
	sarq	$5, %fs:__rsb_depth@tpoff
	nop
	.size	__rsb_entry.busy, busy-__rsb_entry.busy
	.globl	busy
	.type	busy,@function
busy:
	jmp	__rsb_return_thunk
	.size	busy, .-busy
#endif

#ifdef BAD_SHARED
	# Through the PLT, the jump may reach an interposed definition that
	# returns with a plain ret.
	.section .text.rsb_call_thunks,"ax",@progbits
	.p2align 4
	.globl	__rsb_entry.exported
	.type	__rsb_entry.exported,@function
__rsb_entry.exported:
	movq	__rsb_depth@gottpoff(%rip), %r11
	sarq	$5, %fs:(%r11)
	jmp	exported@PLT
	.size	__rsb_entry.exported, .-__rsb_entry.exported
	.text
	.p2align 4
	.globl	exported
	.type	exported,@function
exported:
	jmp	__rsb_return_thunk
	.size	exported, .-exported
#endif
	.section .note.GNU-stack,"",@progbits
