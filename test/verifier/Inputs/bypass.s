# A hand-made instrumented function f (prefix and entry as the plugin
# emits them), an instrumented g that calls f without counting, and a
# _start that reaches f in three wrong ways.
	.text
	.globl	_start
	.type	_start,@function
_start:
	call	__rsb_entry.g		# counted: fine
	jmp	f+4			# into the middle of f
	jmp	__rsb_entry.f		# a jump that counts a call
	call	__rsb_entry.f+2		# into the middle of the sarq
	.size	_start, .-_start

	.p2align 4
	int3
	int3
	int3
	int3
	int3
	int3
	.type	__rsb_entry.f,@function
__rsb_entry.f:
	sarq	$5, %fs:__rsb_depth@tpoff
	.size	__rsb_entry.f, f-__rsb_entry.f
	.type	f,@function
f:
	nop
	nop
	nop
	nop
	nop
	nop
	jmp	f
	.size	f, .-f

	.p2align 4
	int3
	int3
	int3
	int3
	int3
	int3
	.type	__rsb_entry.g,@function
__rsb_entry.g:
	sarq	$5, %fs:__rsb_depth@tpoff
	.size	__rsb_entry.g, g-__rsb_entry.g
	.type	g,@function
g:
	call	f			# bypasses __rsb_entry.f
	jmp	g
	.size	g, .-g

	# An IFUNC resolver named like a part of f (as C++ multiversioning
	# names _Z1fi.resolver beside _Z1fi) is no part of f.
	.type	f.resolver,@function
f.resolver:
	jmp	f+4
	.size	f.resolver, .-f.resolver
	.type	_f_ifunc,@gnu_indirect_function
	.set	_f_ifunc, f.resolver

	.section .tbss,"awT",@nobits
	.globl	__rsb_depth
	.type	__rsb_depth,@object
__rsb_depth:
	.zero	8
	.size	__rsb_depth, 8
