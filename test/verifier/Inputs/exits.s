# Instrumented functions (prefix and entry as the plugin emits them) that
# leave in every way but the return thunk, and some that leave properly.
# Linked with rsb-clang, which supplies __rsb_depth, the thunk and the
# helpers; never run.
	.macro	FUNCTION name
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
	.macro	END name
	.size	\name, .-\name
	.endm

	FUNCTION main
	xorl	%eax, %eax
	jmp	__rsb_return_thunk
	END main

#ifdef RETURNS
	FUNCTION ret_imm		# pops its arguments
	retq	$8
	END ret_imm
	FUNCTION rep_ret		# AMD's two-byte ret is a ret
	rep ret
	END rep_ret
	FUNCTION ret_after_call		# the call is not an accounting helper
	call	plain
	ret
	END ret_after_call
	FUNCTION iret
	iretq
	END iret
	FUNCTION lret
	lretq
	END lret
	FUNCTION sysret
	sysretq
	END sysret
	FUNCTION far_jump
	ljmpl	*(%rax)
	END far_jump

	.type	plain,@function		# not instrumented: its ret is fine
plain:
	ret
	.size	plain, .-plain
#endif

#ifdef ACCOUNTED_RETS
	# A plain ret right after the helper that does the thunk's accounting,
	# possibly followed by a reset (XRay's exit sleds), with the sled's NOPs.
	FUNCTION ret_after_account_reset
	call	__rsb_tail_account
	call	__rsb_reset_depth
	ret
	.nops	10
	END ret_after_account_reset
	# A reset alone accounts nothing: an error.
	FUNCTION ret_after_reset
	call	__rsb_reset_depth
	ret
	.nops	10
	END ret_after_reset
	FUNCTION ret_after_account
	call	__rsb_tail_account
	ret
	.nops	10
	END ret_after_account
	FUNCTION ret_after_account_flags
	call	__rsb_tail_account_flags
	ret
	END ret_after_account_flags
	# The inline return check (-x86-rsb-stuff-return-check=inline).
	FUNCTION ret_checked
	testl	%edi, %edi
	je	1f
	xorl	%eax, %eax
1:	shlq	$5, %fs:__rsb_depth@tpoff
	je	__rsb_refill_return
	ret
	END ret_checked
	# A branch of the function lands on the ret: that path skips the shift.
	FUNCTION ret_check_skipped
	testl	%edi, %edi
	je	1f
	shlq	$5, %fs:__rsb_depth@tpoff
	je	__rsb_refill_return
1:	ret
	END ret_check_skipped
	# ... or on the je, which then tests flags the shift did not set.
	FUNCTION ret_check_je_entered
	testl	%edi, %edi
	je	1f
	shlq	$5, %fs:__rsb_depth@tpoff
1:	je	__rsb_refill_return
	ret
	END ret_check_je_entered
	# A shift by another amount, or a je elsewhere, is not the check.
	FUNCTION ret_check_shift4
	shlq	$4, %fs:__rsb_depth@tpoff
	je	__rsb_refill_return
	ret
	END ret_check_shift4
	FUNCTION ret_check_other_je
	shlq	$5, %fs:__rsb_depth@tpoff
	je	__rsb_return_thunk
	ret
	END ret_check_other_je
#endif

#ifdef INDIRECT
	FUNCTION jump_argument		# where to: the caller decides
	jmp	*%rdi
	END jump_argument
	FUNCTION jump_memory
	jmp	*8(%rdi)
	END jump_memory
	FUNCTION jump_stack		# a return that leaves the address
	jmp	*(%rsp)
	END jump_stack
	FUNCTION jump_after_call
	call	plain_jump
	jmp	*%rax
	END jump_after_call
	.type	plain_jump,@function
plain_jump:
	ret
	.size	plain_jump, .-plain_jump

	# Accounted indirect tail calls.
	FUNCTION tail_after_reset
	call	__rsb_reset_depth
	jmp	*%rdi
	END tail_after_reset
	FUNCTION tail_after_account
	call	__rsb_tail_account
	jmp	*8(%rdi)
	END tail_after_account

	# Indirect tail calls straight to a target with the accounting
	# entry's mark, after the check the plugin emits (mark: what the
	# check compares with; \into: a label inside it, for branches).
	.macro	MARK_CHECK plain, mark=__rsb_prefix_mark, into=0
	movq	%rdi, %r11
	testl	$0x3f0, %r11d
	je	\plain
	movq	-8(%r11), %r10
	cmpq	\mark(%rip), %r10
	jne	\plain
\into\():
	cmpw	$0x4864, -10(%r11)
	jne	\plain
	.endm
	FUNCTION tail_marked
	MARK_CHECK 1f, into=.Lmarked_inside
	jmp	*%r11
1:	call	__rsb_tail_account
	call	__rsb_reset_depth
	jmp	*%r11
	END tail_marked
	FUNCTION tail_mark_entered	# a branch skips the first tests
	testq	%rsi, %rsi
	jne	.Lentered_inside
	MARK_CHECK 1f, into=.Lentered_inside
	jmp	*%r11
1:	call	__rsb_tail_account
	jmp	*%r11
	END tail_mark_entered
	FUNCTION tail_mark_other	# compares with other bytes
	MARK_CHECK 1f, mark=plain_jump, into=.Lother_inside
	jmp	*%r11
1:	call	__rsb_tail_account
	jmp	*%r11
	END tail_mark_other
	FUNCTION tail_mark_other_register
	MARK_CHECK 1f, into=.Lregister_inside
	jmp	*%rdi
1:	call	__rsb_tail_account
	jmp	*%r11
	END tail_mark_other_register
#endif
#ifdef TAILS
	FUNCTION tail_plain		# plain_target returns with a plain ret
	jmp	plain_target
	END tail_plain
	FUNCTION tail_plt
	jmp	puts@PLT
	END tail_plt
	FUNCTION tail_conditional
	testl	%edi, %edi
	jne	plain_target
	jmp	__rsb_return_thunk
	END tail_conditional
	.type	plain_target,@function
plain_target:
	ret
	.size	plain_target, .-plain_target
	# The tail alias of an elided function accounts at its start only:
	# past the call it is a plain jump to code with plain rets.
	.globl	__rsb_tail.elided
	.type	__rsb_tail.elided,@function
__rsb_tail.elided:
	call	__rsb_tail_account
	jmp	plain_target
	.size	__rsb_tail.elided, .-__rsb_tail.elided
	FUNCTION tail_stub_middle
	jmp	__rsb_tail.elided+5
	END tail_stub_middle

	# Accounted: to instrumented code, or after the accounting helpers
	# (stepping over the red zone around the call, as the pass does).
	FUNCTION tail_instrumented
	jmp	main
	END tail_instrumented
	FUNCTION tail_after_account
	call	__rsb_tail_account
	jmp	plain_target
	END tail_after_account
	FUNCTION tail_after_reset
	call	__rsb_reset_depth
	jmp	puts@PLT
	END tail_after_reset
	FUNCTION tail_capped		# a cap of the credit before the accounting
	movq	cap_record(%rip), %r10
	andq	%r10, %fs:__rsb_depth@tpoff
	call	__rsb_tail_account
	jmp	puts@PLT
	END tail_capped
	FUNCTION tail_cap_after_account	# the jump must follow the helper call
	call	__rsb_tail_account
	movq	cap_record(%rip), %r10
	andq	%r10, %fs:__rsb_depth@tpoff
	jmp	puts@PLT
	END tail_cap_after_account
	FUNCTION tail_red_zone
	cmpl	$0x65, %edi
	leaq	-0x80(%rsp), %rsp
	call	__rsb_tail_account_flags
	leaq	0x80(%rsp), %rsp
	jl	plain_target
	jmp	__rsb_return_thunk
	END tail_red_zone
	.data
	.p2align 3
cap_record:
	.quad	-1
	.text
#endif
	.section .note.GNU-stack,"",@progbits
