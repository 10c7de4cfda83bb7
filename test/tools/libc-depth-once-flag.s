# A once-flag: a byte tested with `cmpb $0x0` and only ever set to 1, whose
# address is never taken (no lea, no relocation). glibc's malloc runs its
# unbounded first-call initialisation only while such a flag is 0; the
# fourth column is the depth once the flag is set, `depth@flag-address`,
# from a walk of what is reachable with the branches on the flag decided.
# The walk also follows constant arguments into a callee, to see that
# glibc's __libc_message (do_abort, ...) never returns (`message` here).
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: llvm-nm %t.so > %t.out
# RUN: %libc-depth %t.so -o - >> %t.out
# RUN: FileCheck %s < %t.out
# CHECK:      {{^0*}}[[FLAG:[1-9a-f][0-9a-f]*]] b flag{{$}}
# CHECK:      {{^}}alloc unbounded unbounded 2@[[FLAG]]{{$}}
# CHECK-NEXT: {{^}}alloc_checked unbounded unbounded 2@[[FLAG]]{{$}}
# CHECK-NEXT: {{^}}alloc_cleared unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_entered unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_escaped unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_joined unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_label_taken unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_register unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_unwound unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_warns unbounded unbounded{{$}}
# CHECK:      {{^}}realloc_like unbounded unbounded 3@[[FLAG]]{{$}}
	.include "depth-fn.s"

	.bss
flag:	.byte	0
cleared: .byte	0
escaped: .byte	0
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

# A flag that some code sets back to 0 guards nothing.
	fn	alloc_cleared
	cmpb	$0, cleared(%rip)
	je	1f
	ret
1:	call	init_l
	ret
	endfn	alloc_cleared

	fn	clear
	movb	$0, cleared(%rip)
	ret
	endfn	clear

# Nor does one whose address is taken: a store through it is not seen.
	fn	alloc_escaped
	cmpb	$0, escaped(%rip)
	je	1f
	ret
1:	call	init_l
	ret
	endfn	alloc_escaped

	fn	escape
	lea	escaped(%rip), %rax
	ret
	endfn	escape

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
