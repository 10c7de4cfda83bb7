/*===- rsb_fill.h - Filling the Return Stack Buffer ------------*- asm -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Filling the RSB with entries that point at traps, as assembler macros for
 * the runtime's .S files: the refill of the return thunks and the reset's
 * one entry (rsb_thunks.S), and the signal wrapper's fill
 * (rsb_signal_fill.S). Linux's __FILL_RETURN_BUFFER
 * (arch/x86/include/asm/nospec-branch.h).
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_FILL_H
#define RSB_FILL_H

/* Return Stack Buffer entries on the affected (Skylake-era) cores. */
#define RSB_FILL_ENTRIES 16

/*
 * Drops the fill's return addresses from the CET shadow stack, where its
 * calls pushed them too: the next ret must find its own caller's address
 * on top. rdsspq leaves its register alone (a NOP) when the thread has no
 * shadow stack, and incsspq would raise #UD then: it runs only when the
 * register got a shadow stack pointer. %rax is saved around it (every
 * caller of a refill needs its general registers); the flags are written.
 */
.macro POP_SHADOW_STACK
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rax, 0
	xorl	%eax, %eax
	rdsspq	%rax			/* 0 without a shadow stack */
	testq	%rax, %rax
	jz	3f
	movl	$RSB_FILL_ENTRIES, %eax
	incsspq	%rax			/* pops %al 8-byte entries */
3:
	popq	%rax
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rax
.endm

/*
 * Pushes one RSB entry that points at int3 and drops its return address
 * from the stack and the shadow stack again, so that the next `ret` is
 * predicted into the trap however few entries the code before left: for a
 * `ret` that may follow code the counter cannot see. Writes no register
 * and no flag (jrcxz, not test and jz): the reset keeps them all.
 */
.macro PUSH_TRAP_ENTRY
	call	5f
	.cfi_adjust_cfa_offset 8
	int3				/* only ever reached speculatively */
5:
	leaq	8(%rsp), %rsp
	.cfi_adjust_cfa_offset -8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rcx, 0
	movl	$0, %ecx
	rdsspq	%rcx			/* 0 without a shadow stack */
	jrcxz	6f
	movl	$1, %ecx
	incsspq	%rcx			/* the trap's shadow stack entry */
6:
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rcx
.endm

/*
 * Pushes RSB_FILL_ENTRIES return addresses that point at int3 and drops
 * them from the stack (and the shadow stack) again: they stay in the RSB,
 * so the next returns are predicted into a trap (harmless speculation)
 * rather than from the BTB. No loop, hence no mispredicted loop branch to
 * fence.
 */
.macro FILL_RETURN_BUFFER
	.rept	RSB_FILL_ENTRIES
	call	2f
	.cfi_adjust_cfa_offset 8	/* the slot's return address */
	int3				/* only ever reached speculatively */
2:
	.endr
	addq	$(RSB_FILL_ENTRIES * 8), %rsp
	.cfi_adjust_cfa_offset -(RSB_FILL_ENTRIES * 8)
	POP_SHADOW_STACK
.endm

#endif /* RSB_FILL_H */
