# An instrumented function f, a counter and a return thunk of its own, and
# a _start that calls entries which nothing in the link defines: weak
# (ENTRY_WEAK) or, linked with --unresolved-symbols=ignore-all, strong
# (ENTRY_STRONG).
	.text
	.globl	_start
	.type	_start,@function
_start:
	call	__rsb_entry.f
#ifdef ENTRY_WEAK
	.weak	__rsb_entry.gone
	call	__rsb_entry.gone
#endif
#ifdef ENTRY_STRONG
	jmp	__rsb_tail.gone
#endif
	hlt
	.size	_start, .-_start

	.p2align 4
	int3
	int3
	int3
	int3
	int3
	int3
	.globl	__rsb_entry.f
	.type	__rsb_entry.f,@function
__rsb_entry.f:
	sarq	$5, %fs:__rsb_depth@tpoff
	.size	__rsb_entry.f, f-__rsb_entry.f
	.globl	f
	.type	f,@function
f:
	jmp	__rsb_return_thunk
	.size	f, .-f

	.type	__rsb_return_thunk,@function
__rsb_return_thunk:
	shlq	$5, %fs:__rsb_depth@tpoff
	ret
	.size	__rsb_return_thunk, .-__rsb_return_thunk

	.section .tbss,"awT",@nobits
	.globl	__rsb_depth
	.type	__rsb_depth,@object
__rsb_depth:
	.zero	8
	.size	__rsb_depth, 8
