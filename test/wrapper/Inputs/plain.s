# Plain assembly: never instrumented, assembled exactly as clang does.
	.text
	.globl	asm_one
	.type	asm_one,@function
asm_one:
	movl	$1, %eax
	retq
	.size	asm_one, .-asm_one
	.section	.note.GNU-stack,"",@progbits
