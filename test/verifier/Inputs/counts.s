# Instrumented functions (prefix and entry as the plugin emits them) that
# count calls in their bodies: `sarq $5` on the counter before a call, or
# the call of the runtime's shared mark check. GOOD holds the forms the
# pass emits; the others each count a call whose callee may return with a
# plain `ret`, or no call at all. Linked with rsb-clang (as a PIE, or -c),
# which supplies __rsb_depth, the thunks and the helpers; never run.
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
	jmp	__rsb_return_thunk
	.size	\name, .-\name
	.endm

	# The in-place check of the target's mark, ending in `je \counted`
	# (\into: a label inside it, for branches).
	.macro	MARK_CHECK counted, into=0
	movq	%rdi, %r11
	testl	$0x3f0, %r11d
	je	1f
	movq	-8(%r11), %r10
	cmpq	__rsb_prefix_mark(%rip), %r10
	jne	1f
\into\():
	cmpw	$0x4864, -10(%r11)
	je	\counted
1:	call	*%r11
	call	__rsb_reset_depth
	.endm

	FUNCTION main
	xorl	%eax, %eax
	END main

	.type	plain,@function		# not instrumented: returns with `ret`
plain:
	ret
	.size	plain, .-plain

	.section .tbss,"awT",@nobits
stats:
	.zero	8
	.text

#ifdef GOOD
	FUNCTION mark_counted
	MARK_CHECK 2f
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%r11
3:
	END mark_counted
	FUNCTION mark_counted_stats	# the statistics build's increment
	MARK_CHECK 2f
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	incq	%fs:stats@tpoff
	call	*%r11
3:
	END mark_counted_stats
	FUNCTION mark_counted_retpoline
	MARK_CHECK 2f
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	call	__llvm_retpoline_r11
3:
	END mark_counted_retpoline
	FUNCTION shared_counted
	movq	%rdi, %r11
	call	__rsb_count_marked_r11
	je	1f
	call	*%r11
	call	__rsb_reset_depth
	jmp	2f
1:	call	*%r11
2:
	END shared_counted
	FUNCTION table_counted		# the table's address in the loop
	pushq	%rbx
	leaq	table(%rip), %rbx
1:	movl	%edi, %ecx
	andl	$1, %ecx
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rbx,%rcx,8)
	decl	%edi
	jne	1b
	popq	%rbx
	END table_counted
	FUNCTION table_loaded		# the word loaded into a register
	andl	$1, %edi
	leaq	table(%rip), %rax
	movq	(%rax,%rdi,8), %rax
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%rax
	END table_loaded
	FUNCTION table_retpoline
	andl	$1, %edi
	leaq	table(%rip), %rax
	movq	8(%rax), %r11
	sarq	$5, %fs:__rsb_depth@tpoff
	call	__llvm_retpoline_r11
	END table_retpoline

	FUNCTION table_switch		# the address set before a switch
	leaq	only_main(%rip), %rdx
	leaq	.Lgood_cases(%rip), %rcx
	movslq	(%rcx,%rdi,4), %rax
	addq	%rcx, %rax
	jmp	*%rax
.Lgood_case0:
	xorl	%esi, %esi
.Lgood_case1:
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rdx)
	END table_switch
	.section .rodata,"a",@progbits
	.p2align 2
.Lgood_cases:
	.long	.Lgood_case0-.Lgood_cases
	.long	.Lgood_case1-.Lgood_cases
	.text

	.type	__llvm_retpoline_r11,@function
__llvm_retpoline_r11:
	jmp	*%r11
	.size	__llvm_retpoline_r11, .-__llvm_retpoline_r11

	.section .data.rel.ro,"aw",@progbits
	.p2align 3
	.type	table,@object
table:
	.quad	mark_counted
	.quad	main
	.size	table, .-table
	.type	only_main,@object
only_main:
	.quad	main
	.size	only_main, .-only_main
	.text
#endif

#ifdef NO_CALL
	FUNCTION count_no_call		# a count that no call follows
	sarq	$5, %fs:__rsb_depth@tpoff
	xorl	%eax, %eax
	END count_no_call
#endif

#ifdef PLAIN_TARGET
	FUNCTION count_plain		# plain returns with a plain `ret`
	sarq	$5, %fs:__rsb_depth@tpoff
	call	plain
	END count_plain
	FUNCTION count_argument		# the caller chooses the target
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%rdi
	END count_argument
	FUNCTION count_unchecked	# `call *%r11`, with no mark check
	movq	%rdi, %r11
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%r11
	END count_unchecked
#endif

#ifdef BYPASS
	FUNCTION mark_fall_into		# the unmarked path runs into the count
	MARK_CHECK 2f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%r11
	END mark_fall_into
	FUNCTION mark_skipped		# a branch lands on the count
	testq	%rsi, %rsi
	jne	2f
	MARK_CHECK 2f
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%r11
3:
	END mark_skipped
	FUNCTION mark_call_entered	# a branch lands on the counted call
	testq	%rsi, %rsi
	jne	.Lcall_entered
	MARK_CHECK 2f
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
.Lcall_entered:
	call	*%r11
3:
	END mark_call_entered
	FUNCTION mark_check_entered	# a branch skips the first tests
	movq	%rdi, %r11
	testq	%rsi, %rsi
	jne	.Lcheck_entered
	MARK_CHECK 2f, into=.Lcheck_entered
	jmp	3f
2:	sarq	$5, %fs:__rsb_depth@tpoff
	call	*%r11
3:
	END mark_check_entered
#endif

#ifdef SHARED
	FUNCTION shared_other_call	# ZF set sends another call
	movq	%rdi, %r11
	call	__rsb_count_marked_r11
	je	1f
	call	*%r11
	call	__rsb_reset_depth
	jmp	2f
1:	call	*%rsi
2:
	END shared_other_call
	FUNCTION shared_entered		# a branch lands on the counted call
	movq	%rdi, %r11
	testq	%rsi, %rsi
	jne	1f
	call	__rsb_count_marked_r11
	je	1f
	call	*%r11
	call	__rsb_reset_depth
	jmp	2f
1:	call	*%r11
2:
	END shared_entered
	FUNCTION shared_no_je		# the count, whatever ZF says
	movq	%rdi, %r11
	call	__rsb_count_marked_r11
	call	*%r11
	END shared_no_je
#endif

#ifdef TABLES
	FUNCTION table_writable		# the program may store any target
	andl	$1, %edi
	leaq	writable(%rip), %rax
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rax,%rdi,8)
	END table_writable
	FUNCTION table_plain		# one word is a plain function
	andl	$1, %edi
	leaq	mixed(%rip), %rax
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rax,%rdi,8)
	END table_plain
	FUNCTION table_some_paths	# one path leaves the argument in %rax
	movq	%rsi, %rax
	testl	%edi, %edi
	je	1f
	leaq	only_counted(%rip), %rax
1:	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rax)
	END table_some_paths
	FUNCTION table_after_call	# a call in between clobbers %rax
	leaq	only_counted(%rip), %rax
	call	plain
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rax)
	END table_after_call

	FUNCTION table_switch_case	# a case the switch jumps to skips it
	leaq	.Lbad_cases(%rip), %rcx
	movslq	(%rcx,%rdi,4), %rax
	addq	%rcx, %rax
	jmp	*%rax
.Lbad_case0:
	leaq	only_counted(%rip), %rdx
.Lbad_case1:
	sarq	$5, %fs:__rsb_depth@tpoff
	call	*(%rdx)
	END table_switch_case
	.section .rodata,"a",@progbits
	.p2align 2
.Lbad_cases:
	.long	.Lbad_case0-.Lbad_cases
	.long	.Lbad_case1-.Lbad_cases
	.text

	.section .data.rel.ro,"aw",@progbits
	.p2align 3
	.type	mixed,@object
mixed:
	.quad	main
	.quad	plain
	.size	mixed, .-mixed
	.type	only_counted,@object
only_counted:
	.quad	main
	.size	only_counted, .-only_counted
	.data
	.p2align 3
	.type	writable,@object
writable:
	.quad	main
	.quad	main
	.size	writable, .-writable
	.text
#endif
	.section .note.GNU-stack,"",@progbits
