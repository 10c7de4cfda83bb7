/*===- rsb_thunks.S - Return thunk and tail-call return accounting -------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Instrumented code returns through `shlq $5` on the counter and `je
 * __rsb_refill_return` in place (the default) or by jumping to
 * __rsb_return_thunk (-Os code, -x86-rsb-stuff-return-check=thunk), and calls
 * __rsb_tail_account (or __rsb_tail_account_flags) before a tail jump to
 * code that will return with a plain `ret`. Either shifts the thread's call
 * depth counter left by 5. When that leaves zero, the returns to come may
 * outnumber the entries left in the 16-entry Return Stack Buffer, and an
 * underflowing `ret` would be predicted from the BTB, which an attacker can
 * train (Retbleed). So the RSB is refilled with entries that point at traps
 * and the counter is credited with 12 returns. This is Linux's
 * call_depth_return_thunk and __FILL_RETURN_BUFFER (arch/x86/lib/retpoline.S,
 * arch/x86/include/asm/nospec-branch.h) for user space, with a thread-local
 * counter instead of a per-CPU one.
 *
 * One source, four objects:
 *   RSB_PIC undefined  the counter is defined in the executable being linked:
 *                      local-exec (librsbstuff.a).
 *   RSB_PIC defined    the counter is defined by another module (the
 *                      executable or librsbstuff.so): initial-exec through
 *                      the GOT and %r11 (librsbstuff_pic.a, linked into
 *                      shared objects).
 *   RSB_STATS          also count returns and refills in __rsb_stats.
 * This file only references __rsb_depth and __rsb_stats; rsb_runtime.c
 * defines them, so that one definition serves the whole process.
 *
 * The functions are hidden: each module links its own copy and reaches it
 * without a PLT. They clobber nothing but the flags and, in the PIC return
 * thunk, %r11, which is scratch at every return we instrument. They are
 * only entered where the caller's frame is gone (at a return, right before a
 * tail jump), so their pushes below %rsp cannot hit a live red zone.
 *
 * CET: the object is marked compatible with indirect branch tracking and
 * shadow stacks (GNU_PROPERTY_NOTE at the end), so that linking it keeps a
 * -fcf-protection program's marking. IBT: every symbol here is hidden and
 * only reached by a direct call or jmp, which need no ENDBR64. Shadow stack:
 * the refill's calls never return, so the refill pops their return
 * addresses off the shadow stack as well (POP_SHADOW_STACK).
 *
 *===----------------------------------------------------------------------===*/

#include "rsb_fill.h"
#include "rsb_property_note.h"

/* Bits per call level: an all-ones counter reaches zero on the 13th shift. */
#define RSB_DEPTH_SHIFT 5
/* Offsets in struct rsb_stats (rsb_stuff.h; checked in rsb_runtime.c). */
#define RSB_STATS_RETURNS 8
#define RSB_STATS_REFILLS 16
#define RSB_STATS_RESETS 24

/*
 * The counter as a memory operand, after LOAD_COUNTER. The PIC form cannot
 * know the counter's offset from the thread pointer at link time: the
 * dynamic linker puts it in the GOT (initial-exec, like the prefixes of
 * instrumented shared objects, so no new static TLS requirement).
 */
#ifdef RSB_PIC
#define LOAD_COUNTER movq __rsb_depth@gottpoff(%rip), %r11
#define COUNTER %fs:(%r11)
#define COUNTER_TOP_BYTE %fs:7(%r11)
#define COUNTER_USES_R11 1
#else
#define LOAD_COUNTER
#define COUNTER %fs:__rsb_depth@tpoff
#define COUNTER_TOP_BYTE %fs:__rsb_depth@tpoff + 7
#define COUNTER_USES_R11 0
#endif

/*
 * Counts one event in the thread's statistics block. The PIC form reuses
 * %r11 and so must not sit between LOAD_COUNTER and a use of COUNTER.
 */
#if defined(RSB_STATS) && defined(RSB_PIC)
#define STATS_INC(field)                                                       \
  movq __rsb_stats@gottpoff(%rip), %r11;                                       \
  incq %fs:field(%r11)
#elif defined(RSB_STATS)
#define STATS_INC(field) incq %fs:__rsb_stats@tpoff + field
#else
#define STATS_INC(field)
#endif

/*
 * All ones: 12 returns before the next refill. The RSB will hold 16 trap
 * entries, and the refilling function's own ret takes one of them.
 *
 * Stored before FILL_RETURN_BUFFER, not after: a signal handled in the
 * middle of the fill resets the counter on its way out (rsb_signal.c),
 * because the handler and the kernel may have used the entries pushed so
 * far. A credit stored after the fill would overwrite that reset and count
 * 12 returns on an RSB that holds only the entries pushed after the signal.
 * Stored first, the reset wins: under-counting, which only refills early.
 * Nothing returns through the thunk between the store and the end of the
 * fill except a signal handler, and its wrapper resets the counter first.
 */
.macro CREDIT_CALL_DEPTH
	movq	$-1, COUNTER
.endm

/*
 * RSB_DEPTH_INIT (0x8000000000000000, rsb_stuff.h): depth zero, no credit.
 * The next return that is not matched by a counted call refills, but a
 * counted call and its return still balance, as after Linux's
 * RESET_CALL_DEPTH. (Zero would not do: `sarq` keeps it zero, so every
 * return until the next refill would refill.) No instruction stores a 64-bit
 * immediate to memory and `bts` writes the flags, so: two stores, which
 * write no register and no flag. A signal handled in between leaves
 * RSB_DEPTH_INIT behind (rsb_signal.c), which the second store keeps.
 */
.macro RESET_CALL_DEPTH
	movq	$0, COUNTER
	movb	$0x80, COUNTER_TOP_BYTE	/* the sign bit: 1 << 63 */
.endm

/* What a tail helper's caller still needs: %r11 (a tail jump may go through
 * it) and, before a conditional tail jump, the flags. */
.macro SAVE_REGS keep_r11, keep_flags
	.if \keep_flags
	pushfq
	.cfi_adjust_cfa_offset 8
	.endif
	.if \keep_r11
	pushq	%r11
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r11, 0
	.endif
.endm

/* The CFI of SAVE_REGS again, for the path that joins after an early exit
 * has restored them. (LLVM's assembler does not track the CFA offset across
 * .cfi_remember_state/.cfi_restore_state, so those cannot be used here.) */
.macro SAVED_REGS_CFI keep_r11, keep_flags
	.if \keep_flags
	.cfi_adjust_cfa_offset 8
	.endif
	.if \keep_r11
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %r11, 0
	.endif
.endm

.macro RESTORE_REGS keep_r11, keep_flags
	.if \keep_r11
	popq	%r11
	.cfi_adjust_cfa_offset -8
	.cfi_restore %r11
	.endif
	.if \keep_flags
	popfq
	.cfi_adjust_cfa_offset -8
	.endif
.endm

/*
 * A function that accounts one return, refills the RSB if that spends the
 * counter, and returns to its caller. Every ret is followed by int3 against
 * straight-line speculation.
 */
.macro ACCOUNTING_FUNC name, keep_r11, keep_flags
	.p2align 4, 0xcc		/* padding traps stray jumps */
	.globl	\name
	.hidden	\name
	.type	\name, @function
\name:
	.cfi_startproc
	SAVE_REGS \keep_r11, \keep_flags
	STATS_INC(RSB_STATS_RETURNS)
	LOAD_COUNTER
	shlq	$RSB_DEPTH_SHIFT, COUNTER
	jz	1f
	RESTORE_REGS \keep_r11, \keep_flags
	ret
	int3
1:
	SAVED_REGS_CFI \keep_r11, \keep_flags
	CREDIT_CALL_DEPTH		/* first: see CREDIT_CALL_DEPTH */
	FILL_RETURN_BUFFER
	STATS_INC(RSB_STATS_REFILLS)
	RESTORE_REGS \keep_r11, \keep_flags
	ret
	int3
	.cfi_endproc
	.size	\name, . - \name
.endm

	.text

/*
 * Entered by `jmp` in place of a `ret`. The hot path (shl, jz, ret, int3)
 * fits one 16-byte fetch block: 14 bytes local-exec, exactly 16 with the
 * PIC form's GOT load. The statistics variant's extra increment in front
 * gives that up; it measures, it is not meant to be fast. Its refill path
 * is __rsb_refill_return, right behind it: close enough for a 2-byte jz.
 */
	.p2align 4, 0xcc		/* padding traps stray jumps */
	.globl	__rsb_return_thunk
	.hidden	__rsb_return_thunk
	.type	__rsb_return_thunk, @function
__rsb_return_thunk:
	.cfi_startproc
	STATS_INC(RSB_STATS_RETURNS)
	LOAD_COUNTER
	shlq	$RSB_DEPTH_SHIFT, COUNTER
	jz	.Lrefill_return
	ret
	int3
	.cfi_endproc
	.size	__rsb_return_thunk, . - __rsb_return_thunk

/*
 * A return whose `shlq` left the counter zero: refill, credit, and return
 * for the function that was returning. Also entered directly (`je`) by the
 * default in-place return check (docs/design.md, "Returns and tail calls"),
 * which does the shift in place of the `jmp` to the thunk.
 */
	.globl	__rsb_refill_return
	.hidden	__rsb_refill_return
	.type	__rsb_refill_return, @function
__rsb_refill_return:
.Lrefill_return:
	.cfi_startproc
	LOAD_COUNTER			/* %r11 is dead at a return */
	CREDIT_CALL_DEPTH		/* first: see CREDIT_CALL_DEPTH */
	FILL_RETURN_BUFFER
	STATS_INC(RSB_STATS_REFILLS)
	ret
	int3
	.cfi_endproc
	.size	__rsb_refill_return, . - __rsb_refill_return

/*
 * Called right before a tail jump to code that returns with a plain `ret`,
 * to account that future ret now; all general purpose registers survive.
 *
 * A refill here is still safe although the RSB entries it plants are
 * consumed by returns that are not accounted: this helper's own ret takes
 * one and the tail-called code's plain ret another, which leaves 14 trap
 * entries for the 12 returns of credit. The helper's own call and ret are
 * balanced, so they do not count themselves.
 */
ACCOUNTING_FUNC __rsb_tail_account, COUNTER_USES_R11, 0

/* The same for a conditional tail jump (`jcc target`), whose flags are live. */
ACCOUNTING_FUNC __rsb_tail_account_flags, COUNTER_USES_R11, 1

/*
 * Called right after code the counter cannot see returns to instrumented
 * code (a call into a library that returns with plain rets, an indirect
 * call, a setjmp that returned again) and at exception landing pads. That
 * code may have pushed more than the RSB's spare entries and popped them
 * again, taking the entries our credit stands for with them. No credit: the
 * next accounted return without a counted call refills. Preserves every
 * register and the flags (it is also called right before conditional tail
 * jumps).
 *
 * Also jumped to, at the end of a frame that called such code (rsb-ld's
 * fallbacks, tail calls to plain code, __rsb_icall_r11): its `ret` then
 * ends the frame's own call, after the callee's plain return, which may
 * have taken the RSB's last entry. So it returns over one entry pushed
 * right before (PUSH_TRAP_ENTRY), predicted into a trap, never from the
 * BTB: one misprediction per reset, which a refill follows anyway. The
 * entry of the call that reached it stays in the RSB, one too many, until
 * the next return without a counted call refills.
 */
	.p2align 4, 0xcc
	.globl	__rsb_reset_depth
	.hidden	__rsb_reset_depth
	.type	__rsb_reset_depth, @function
__rsb_reset_depth:
	.cfi_startproc
	SAVE_REGS COUNTER_USES_R11, 0
	LOAD_COUNTER
	RESET_CALL_DEPTH
#ifdef RSB_STATS
	SAVE_REGS 0, 1			/* incq writes the flags; keep them */
	STATS_INC(RSB_STATS_RESETS)
	RESTORE_REGS 0, 1
#endif
	RESTORE_REGS COUNTER_USES_R11, 0
	PUSH_TRAP_ENTRY
	ret
	int3
	.cfi_endproc
	.size	__rsb_reset_depth, . - __rsb_reset_depth

/*
 * The accounting of an entry in code optimised for size (-Os, -Oz): `call
 * __rsb_count_call` in place of the `sarq`, 5 bytes instead of 10 (12 in a
 * shared object; llvm-pass/X86RSBStuff.cpp, usesCountCall). It shifts the
 * counter for the call that entered the entry and returns into it, which
 * falls through into its function. Its own call and return match, and
 * take one of the RSB's spare entries for a moment, as the other helpers
 * do. Clobbers the flags and, in the PIC form, %r11, which are free at a
 * function's entry (the entries that must keep %r11 hold the `sarq`). Its
 * `sarq` is followed by a `ret`, never by a function's first byte: no mark.
 */
	.p2align 4, 0xcc
	.globl	__rsb_count_call
	.hidden	__rsb_count_call
	.type	__rsb_count_call, @function
__rsb_count_call:
	.cfi_startproc
	LOAD_COUNTER
	sarq	$RSB_DEPTH_SHIFT, COUNTER
	ret
	int3
	.cfi_endproc
	.size	__rsb_count_call, . - __rsb_count_call

/*
 * A return thunk that only returns: what `-x86-rsb-stuff-variant=ret-thunk`
 * jumps to, to measure the cost of the jump alone (docs/performance.md).
 */
	.p2align 4, 0xcc
	.globl	__rsb_plain_return
	.hidden	__rsb_plain_return
	.type	__rsb_plain_return, @function
__rsb_plain_return:
	.cfi_startproc
	ret
	int3
	.cfi_endproc
	.size	__rsb_plain_return, . - __rsb_plain_return

#ifndef RSB_PIC
/*
 * Falls through when the ten bytes before the target in %r11 are an
 * accounting entry's `sarq` (the mark), jumping to \unreadable when they
 * may not be read and to \unmarked when they differ; clobbers %r10 and the
 * flags (llvm-pass/RSBStuffIndirectCalls.cpp has the check in place).
 */
.macro MARK_CHECK unreadable, unmarked
	testl	$0x3f0, %r11d		/* f-10 lies in f's page, not vsyscall */
	jz	\unreadable
	movq	-8(%r11), %r10
	cmpq	__rsb_prefix_mark(%rip), %r10
	jne	\unmarked
	cmpw	$0x4864, -10(%r11)	/* the %fs and REX.W prefixes */
	jne	\unmarked
.endm

/*
 * The mark check of a counted indirect call and the accounting of its
 * entry, shared by the call sites (llvm-pass/RSBStuffIndirectCalls.cpp):
 * `call __rsb_count_marked_r11; je .Lcounted` instead of 34 bytes in place.
 * The target is in %r11. When the ten bytes before it are an entry's
 * `sarq` (the mark, __rsb_prefix_mark below), this counts the call the
 * site is about to make and returns with ZF set; otherwise it changes
 * nothing and returns with ZF clear, and the site calls uncounted and
 * resets. Clobbers %r10 and the flags, which the site leaves free, and
 * uses no stack below the return address, which the site's own call
 * overwrites next anyway. Its `sarq` is followed by an `xorl`, never by a
 * function's first byte: the runtime carries no mark.
 */
	.p2align 4, 0xcc
	.globl	__rsb_count_marked_r11
	.hidden	__rsb_count_marked_r11
	.type	__rsb_count_marked_r11, @function
__rsb_count_marked_r11:
	.cfi_startproc
	MARK_CHECK 1f, 2f		/* at 2f ZF is clear: not marked */
	sarq	$RSB_DEPTH_SHIFT, COUNTER	/* the entry's accounting */
	xorl	%r10d, %r10d		/* ZF set: counted */
	ret
1:	testq	%rsp, %rsp		/* ZF clear: %rsp is never 0 */
2:	ret
	int3
	.cfi_endproc
	.size	__rsb_count_marked_r11, . - __rsb_count_marked_r11

/*
 * Stops at a target that is one of the C library's six functions that
 * return twice (__rsb_returns_twice, rsb_returns_twice.c: each by the
 * executable's address and by the library's): the frame below would be
 * gone when it returns the second time. __rsb_returns_twice_called says
 * which one it was and traps.
 */
.macro RETURNS_TWICE_CHECK
	testq	%r11, %r11		/* a null target faults as in place; */
	jz	4f			/* the words of absent functions are 0 */
	.irp	n, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	cmpq	__rsb_returns_twice + \n * 8(%rip), %r11
	je	.Lreturns_twice
	.endr
4:
.endm

/*
 * The whole counted indirect call, shared by the call sites of functions
 * that pass no argument on the stack (llvm-pass/RSBStuffIndirectCalls.cpp):
 * `call __rsb_icall_r11` in place of the check, both calls and the reset, 5
 * bytes instead of 54 in place. The target is in %r11.
 *
 * A marked target is counted, as by __rsb_count_marked_r11, and entered by
 * a jump: it returns through its check straight to the site, so the call is
 * counted exactly as in place, and the site's return address is the
 * callee's, as unwinders and the callee expect.
 *
 * Any other target is called from a frame of this function, uncounted, and
 * the credit is reset after it returns, as at the site before: the reset
 * must follow the callee, whose plain returns may have used up the entries
 * a callback's refill left. The frame is why the site may pass no argument
 * on the stack (the callee would look for it 16 bytes too low) and may not
 * call a function that returns twice (the frame is gone by then).
 * `pushq %rbp; movq %rsp, %rbp` keeps the stack 16-byte aligned at the call
 * and frame-pointer unwinders on the site's chain; the FDE serves the
 * others. The frame ends in the reset, whose own ret comes after the
 * callee's and so returns over an entry it pushed at a trap
 * (__rsb_reset_depth). A target among the C library's functions that
 * return twice stops the program (RETURNS_TWICE_CHECK). Clobbers %r10,
 * %r11 and the flags, which the site leaves free.
 */
	.p2align 4, 0xcc
	.globl	__rsb_icall_r11
	.hidden	__rsb_icall_r11
	.type	__rsb_icall_r11, @function
__rsb_icall_r11:
	.cfi_startproc
	MARK_CHECK 1f, 1f
	sarq	$RSB_DEPTH_SHIFT, COUNTER	/* the entry's accounting */
	jmp	*%r11			/* f returns to the site */
	int3				/* straight-line speculation stops here */
1:
	RETURNS_TWICE_CHECK
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	call	*%r11			/* uncounted: it may return plainly */
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	jmp	__rsb_reset_depth	/* the reset, and the return to the site */
.Lreturns_twice:
	movq	%r11, %rdi		/* the target */
	jmp	__rsb_returns_twice_called
	.cfi_endproc
	.size	__rsb_icall_r11, . - __rsb_icall_r11

/*
 * The mark of an accounting entry in an executable, for counted indirect
 * calls (llvm-pass/RSBStuffIndirectCalls.cpp): the last eight bytes of
 * `sarq $5, %fs:__rsb_depth@tpoff` (64 48 | c1 3c 25 <tpoff> 05), which end
 * at every instrumented function's start. The TP offset is only known to
 * the link, so the call site compares against this word instead of an
 * immediate. Read-only: a program cannot forge marks by writing it. Only
 * local-exec: a shared object's prefixes read the counter's offset from the
 * GOT, and its indirect calls are never counted.
 */
	.section .rodata.rsb_prefix_mark, "a", @progbits
	.p2align 3
	.globl	__rsb_prefix_mark
	.hidden	__rsb_prefix_mark
	.type	__rsb_prefix_mark, @object
__rsb_prefix_mark:
	.byte	0xc1, 0x3c, 0x25	/* sar r/m64, imm8; /7 with SIB; disp32 */
	.long	__rsb_depth@tpoff	/* the counter's offset from %fs */
	.byte	RSB_DEPTH_SHIFT
	.size	__rsb_prefix_mark, . - __rsb_prefix_mark
#endif

	CET_PROPERTY_NOTE

	.section .note.GNU-stack, "", @progbits
