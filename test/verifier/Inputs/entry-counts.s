# Accounting entries that count their call once (GOOD: the `sarq`, or the
# call of the runtime's __rsb_count_call that code optimised for size
# makes) and twice (TWICE), and a body that calls __rsb_count_call
# (BODY_COUNT_CALL), and compact entries of the wrong shape: a call of
# another function (OTHER_CALL) and __rsb_count_call's call followed by
# another instruction (CALL_NOT_LAST). Linked with rsb-clang, which supplies __rsb_depth,
# the thunk and the helpers.
	.macro	ENTRY name
	.text
	.p2align 4
	.type	__rsb_entry.\name,@function
__rsb_entry.\name:
	.endm
	.macro	BODY name
	.size	__rsb_entry.\name, \name-__rsb_entry.\name
	.globl	\name
	.type	\name,@function
\name:
	.endm

	ENTRY	main
	sarq	$5, %fs:__rsb_depth@tpoff
	BODY	main
	xorl	%eax, %eax
	jmp	__rsb_return_thunk
	.size	main, .-main

#ifdef GOOD
	ENTRY	compact
	call	__rsb_count_call
	BODY	compact
	jmp	__rsb_return_thunk
	.size	compact, .-compact
#endif

#ifdef TWICE
	ENTRY	shift_twice
	sarq	$5, %fs:__rsb_depth@tpoff
	sarq	$5, %fs:__rsb_depth@tpoff
	BODY	shift_twice
	jmp	__rsb_return_thunk
	.size	shift_twice, .-shift_twice

	ENTRY	shift_and_call
	sarq	$5, %fs:__rsb_depth@tpoff
	call	__rsb_count_call
	BODY	shift_and_call
	jmp	__rsb_return_thunk
	.size	shift_and_call, .-shift_and_call
#endif

#ifdef BODY_COUNT_CALL
	ENTRY	counts_in_body
	sarq	$5, %fs:__rsb_depth@tpoff
	BODY	counts_in_body
	call	__rsb_count_call
	jmp	__rsb_return_thunk
	.size	counts_in_body, .-counts_in_body
#endif

#ifdef OTHER_CALL
	ENTRY	calls_other
	call	other
	BODY	calls_other
	jmp	__rsb_return_thunk
	.size	calls_other, .-calls_other

	.type	other,@function
other:
	ret
	.size	other, .-other
#endif

#ifdef CALL_NOT_LAST
	ENTRY	call_not_last
	call	__rsb_count_call
	nop
	BODY	call_not_last
	jmp	__rsb_return_thunk
	.size	call_not_last, .-call_not_last
#endif

	.section .note.GNU-stack,"",@progbits
