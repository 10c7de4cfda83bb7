# A once-flag (a byte tested with `cmpb $0x0` that stays set once set:
# libc-depth-once-flag-bytes.s) guards glibc's malloc's unbounded first-call
# initialisation; the fourth column is the depth once the flag is set,
# `depth@flag-address`, from a walk of what is reachable with the branches
# on the flag decided, from every way into the function. The walk also
# follows constant arguments into a callee, to see that glibc's
# __libc_message (do_abort, ...) never returns (`message` here).
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: llvm-nm %t.so > %t.out
# RUN: %libc-depth %t.so -o - >> %t.out
# RUN: FileCheck %s < %t.out
# CHECK:      {{^0*}}[[FLAG:[1-9a-f][0-9a-f]*]] b flag{{$}}
# CHECK:      {{^}}alloc unbounded unbounded 2@[[FLAG]]{{$}}
# CHECK-NEXT: {{^}}alloc_abort unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_ah unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_checked unbounded unbounded 2@[[FLAG]]{{$}}
# CHECK-NEXT: {{^}}alloc_entered unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_fs unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_je unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_joined unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_label_taken unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_loop unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_register unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_selfcall unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_unwound unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_warns unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_xbegin unbounded unbounded{{$}}
# CHECK:      {{^}}nested unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}nested_pad unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}outer unbounded unbounded{{$}}
# CHECK:      {{^}}realloc_like unbounded unbounded 3@[[FLAG]]{{$}}
# CHECK:      {{^}}user unbounded unbounded{{$}}
	.include "depth-fn.s"

	.bss
	.type	flag, @object
	.size	flag, 1
flag:	.byte	0
	.text

	fn	d0
	ret
	endfn	d0

	fn	d1
	call	d0_l
	ret
	endfn	d1

	fn	die			# never returns: no ret
	ud2
	endfn	die

	fn	init			# unbounded: an indirect call
	call	*%rax
	ret
	endfn	init

# message (action): returns unless bit 0 of action is set.
	fn	message
	and	$1, %edi
	push	%rbx
	.cfi_adjust_cfa_offset 8
	mov	%edi, %ebx
	call	d1_l			# keeps %rbx (psABI)
	test	%ebx, %ebx
	jne	1f
	pop	%rbx
	.cfi_adjust_cfa_offset -8
	ret
1:	call	die_l
	endfn	message

# 2 once `flag` is set: the init path is dead.
	fn	alloc
	cmpb	$0, flag(%rip)
	je	2f
1:	call	d1_l
	ret
2:	call	init_l
	movb	$1, flag(%rip)
	jmp	1b
	endfn	alloc

# The corruption report falls through into the init call: message (1)
# never returns, so that path is dead too.
	fn	alloc_checked
	cmpb	$0, flag(%rip)
	je	2f
1:	test	%rsi, %rsi
	jne	3f
	call	d1_l
	ret
3:	mov	$1, %edi
	call	message_l
2:	call	init_l
	jmp	1b
	endfn	alloc_checked

# message (0) returns: the init call is reachable with the flag set.
	fn	alloc_warns
	cmpb	$0, flag(%rip)
	je	2f
1:	test	%rsi, %rsi
	jne	3f
	call	d1_l
	ret
3:	xor	%edi, %edi
	call	message_l
2:	call	init_l
	jmp	1b
	endfn	alloc_warns

# Another function jumps straight to the init call.
	fn	alloc_entered
	cmpb	$0, flag(%rip)
	je	.Lentered_init
	call	d1_l
	ret
.Lentered_init:
	call	init_l
	ret
	endfn	alloc_entered

	fn	enter
	jmp	.Lentered_init
	endfn	enter

# Only `cmpb $0x0, flag(%rip)` right before the branch decides it.
	fn	alloc_register
	movzbl	flag(%rip), %eax
	test	%al, %al
	je	1f
	ret
1:	call	init_l
	ret
	endfn	alloc_register

# A branch that another jump also reaches tests that jump's flags.
	fn	alloc_joined
	test	%edi, %edi
	je	1f
	cmpb	$0, flag(%rip)
1:	je	2f
	call	d1_l
	ret
2:	call	init_l
	ret
	endfn	alloc_joined

# A function with landing pads (an LSDA in its FDE): the unwinder enters
# them, which no jump shows.
	fn	alloc_unwound
	.cfi_personality 0x1b, personality
	.cfi_lsda 0x1b, .Llsda
	cmpb	$0, flag(%rip)
	je	1f
	call	d1_l
1:	ret
	call	init_l			# a landing pad
	ret
	endfn	alloc_unwound

personality:
	ret
	.section .gcc_except_table,"a",@progbits
.Llsda:
	.byte	0xff, 0xff, 0x1, 0x0
	.text

# Another function takes the address of the init call: a way in that no
# direct jump shows.
	fn	alloc_label_taken
	cmpb	$0, flag(%rip)
	je	1f
	ret
1:
.Ltaken:
	call	init_l
	ret
	endfn	alloc_label_taken

	fn	take_label
	lea	.Ltaken(%rip), %rax
	jmp	*%rax
	endfn	take_label

# A call to a function bounded once the flag is set, one level deeper.
	fn	realloc_like
	call	alloc_l
	ret
	endfn	realloc_like


# The abort path of a transaction is a way in too.
	fn	alloc_xbegin
	cmpb	$0, flag(%rip)
	je	2f
	xbegin	1f
	call	d1_l
	xend
	ret
1:	call	init_l
2:	ret
	endfn	alloc_xbegin

# `loop` counts %rcx down: 0 here, whatever it was.
	fn	alloc_loop
	cmpb	$0, flag(%rip)
	je	2f
	mov	$2, %ecx
1:	loop	1b
	test	%ecx, %ecx
	jne	2f
	call	init_l
2:	ret
	endfn	alloc_loop

# %ah is bits 8-15 of %rax: 0 here.
	fn	alloc_ah
	cmpb	$0, flag(%rip)
	je	2f
	mov	$1, %eax
	test	%ah, %ah
	jne	2f
	call	init_l
2:	ret
	endfn	alloc_ah

# A function that starts with the branch gets its flags from its caller,
# not from the `cmpb` the previous function happens to end with.
	fn	test_flag
	cmpb	$0, flag(%rip)
	.cfi_endproc
	.size	test_flag, .-test_flag
	.globl	alloc_je
	.type	alloc_je, @function
alloc_je:
	.cfi_startproc
	je	1f
	cmpb	$0, flag(%rip)		# (tried with the flag)
	ret
1:	call	init_l
	ret
	endfn	alloc_je

# An exported symbol without an FDE inside another function's range: its
# jump to the init call is a way in from outside.
	fn	outer
	cmpb	$0, flag(%rip)
	je	.Louter_init
	ret
	.globl	inner
	.type	inner, @function
inner:
	jmp	.Louter_init
	.size	inner, .-inner
.Louter_init:
	call	init_l
	ret
	endfn	outer

# An abort leaves its status in %rax, not what the transaction began with.
	fn	alloc_abort
	cmpb	$0, flag(%rip)
	je	2f
	xor	%eax, %eax
	xbegin	1f
	xend
	ret
1:	test	%eax, %eax
	je	2f
	call	init_l
2:	ret
	endfn	alloc_abort

# `cmpb $0x0, %fs:F(%rip)` tests a thread's byte, not F.
	fn	alloc_fs
	cmpb	$0, %fs:flag(%rip)
	je	1f
	ret
1:	call	init_l
	ret
	endfn	alloc_fs

# A callee that calls into its own range returns by a path the walk of its
# start does not see: `msg (1)` may return.
	fn	msg
	call	1f
	ud2
1:	add	$8, %rsp
	ret
	endfn	msg

	fn	alloc_selfcall
	cmpb	$0, flag(%rip)
	je	2f
	test	%rsi, %rsi
	jne	1f
	ret
1:	mov	$1, %edi
	call	msg_l
2:	call	init_l
	ret
	endfn	alloc_selfcall

# A symbol nested in another function's range that runs off its end into
# that function's init call, a way in the enclosing walk does not know.
	fn	outer_fall
	cmpb	$0, flag(%rip)
	je	.Lfall_init
	ret
	.globl	nested
	.type	nested, @function
nested:
	cmpb	$0, flag(%rip)		# (tried with the flag)
	nop
	.size	nested, .-nested
.Lfall_init:
	call	init_l
	ret
	endfn	outer_fall

# A symbol nested in a range with landing pads.
	fn	pads
	.cfi_personality 0x1b, personality
	.cfi_lsda 0x1b, .Llsda
	ret
	.globl	nested_pad
	.type	nested_pad, @function
nested_pad:
	cmpb	$0, flag(%rip)
	je	1f
1:	ret
	call	init_l			# a landing pad of pads
	ret
	.size	nested_pad, .-nested_pad
	endfn	pads

# `uiret` returns (from a user interrupt handler).
	fn	user
	call	init_l
	uiret
	endfn	user
