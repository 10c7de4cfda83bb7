# The runtime's refill sequence outside the runtime: 16 `call 1f; int3; 1:`
# and `add $128, %rsp` leave 16 RSB entries that point at int3 and nothing
# on the stack. Then:
#   3 returns with no call (push target; ret), each predicted into an int3:
#     3 trap;
#   nest(4): 4 calls and 4 returns on top of the 13 entries left: 4 correct
#     (the 17th entry evicts the oldest int3 one);
#   13 more push-ret returns: the 12 int3 entries left give 12 trap, then
#     the RSB is empty: 1 underflow.
# Totals: calls 16+4 = 20, returns 3+4+13 = 20, trap 15, correct 4,
# underflows 1, mispredicted 0. No refill is counted: these calls are not
# inside the runtime's thunks.
	.macro	PUSH_RET
	leaq	1f(%rip), %rax
	pushq	%rax
	ret
1:
	.endm

	.text
	.globl	_start
	.type	_start, @function
_start:
	.rept	16
	call	1f
	int3
1:
	.endr
	addq	$128, %rsp
	.rept	3
	PUSH_RET
	.endr
	movl	$4, %edi
	call	nest
	.rept	13
	PUSH_RET
	.endr
	movl	$60, %eax		# exit(0)
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

# nest(n): n nested calls including this one, then n returns.
	.type	nest, @function
nest:
	decl	%edi
	jz	1f
	call	nest
1:
	ret
	.size	nest, . - nest

	.section .note.GNU-stack, "", @progbits
