# An indirect jump is unbounded (a tail call through a pointer), except a
# switch table inside the function: `notrack jmp *` (the compiler's mark
# under -fcf-protection), GCC's position-independent table idiom (`movslq`
# of a 32-bit entry added to the table base) and a computed jump from a
# label of the same function (glibc's memmove-ssse3).
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}label_relative 0 0{{$}}
# CHECK: {{^}}notrack_switch 0 0{{$}}
# CHECK-NEXT: {{^}}pic_switch 1 1{{$}}
# CHECK-NEXT: {{^}}plain_jump unbounded unbounded{{$}}
	.include "depth-fn.s"

	fn	leaf
	ret
	endfn	leaf

	fn	notrack_switch
	lea	.Ltable1(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	notrack jmp *%rax
.Lcase1a:
	mov	$1, %eax
	ret
.Lcase1b:
	mov	$2, %eax
	ret
	endfn	notrack_switch

	fn	pic_switch
	lea	.Ltable2(%rip), %rdx
	movslq	(%rdx,%rdi,4), %rax
	add	%rdx, %rax
	jmp	*%rax
.Lcase2a:
	call	leaf_l
	ret
.Lcase2b:
	ret
	endfn	pic_switch

	fn	label_relative
	and	$3, %ecx
	lea	.Lblocks(%rip), %r9
	shl	$4, %ecx
	add	%r9, %rcx
	jmp	*%rcx
	.p2align 4
.Lblocks:
	.rept	4
	ret
	.fill	15, 1, 0xcc
	.endr
	endfn	label_relative

	fn	plain_jump
	mov	(%rdi), %rax
	jmp	*%rax
	endfn	plain_jump

	.section .rodata
	.p2align 2
.Ltable1:
	.long	.Lcase1a-.Ltable1
	.long	.Lcase1b-.Ltable1
.Ltable2:
	.long	.Lcase2a-.Ltable2
	.long	.Lcase2b-.Ltable2
