// Assembly through the preprocessor.
#define ONE 1
	.text
	.globl	asm_pp_one
	.type	asm_pp_one,@function
asm_pp_one:
	movl	$ONE, %eax
	retq
	.size	asm_pp_one, .-asm_pp_one
	.section	.note.GNU-stack,"",@progbits
