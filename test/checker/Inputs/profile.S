# Programs for the refill profile (rsb-check --refill-profile), without libc
# or a loader: instrumented functions written by hand the way rsb-stuff
# compiles them (an __rsb_entry.f symbol on the `sarq $5` right before f, a
# `shlq $5; je __rsb_refill_return; ret` at each return), a counter in a
# thread-local block of our own, and the runtime's refill and reset under
# their names. _start calls the instrumented `driver` ROUNDS times through
# its entry; what driver does is chosen with -D. Counter values are written
# as their leading ones: 1 at the start (1 << 63), +5 per counted call (at
# most 64), -5 per return check, which refills when that leaves none (64).
# The exact counter (E) counts every call and return the same way; the
# program's (P) only the counted ones.
#
# UNCOUNTED (CALLS callbacks): driver calls `sorter` (not instrumented),
#   which calls the instrumented cb CALLS times through a pointer, as qsort
#   calls a comparator: never counted, yet each return check spends a
#   level. P: 6 in driver; cb 1 leaves 1, cb 2 refills, and then every
#   13th. E: 11 in sorter, 16 in cb: never refills. CALLS 28: refills at
#   cb 2, 15 and 28: 3 excess refills, charged to cb's uncounted entry.
# RESET: driver calls inner (counted), inner calls `lib` (not instrumented)
#   and then __rsb_reset_depth. P: 64 after the calls (6 in the first
#   round), 1 after the reset, and inner's return refills. E: 11 in inner,
#   16 in lib and in the reset, 1 after driver: never refills. One excess
#   refill per round, charged to the reset (its call in inner).
# CAP: as RESET, but inner caps the counter to 6 (credit 1) after lib,
#   as rsb-stuff does after a C library function of known depth: inner's
#   return leaves 1, driver's refills. One excess refill per round, charged
#   to the cap.
# MOVED: driver calls nest(20), a counted recursion whose innermost call
#   calls lib and resets. E: 64 after the 21 calls, 59 after lib and after
#   the reset (saturated, each call of them lost a level): refills at the
#   12th of the 21 returns. P: 1 after the reset: refills at the 1st and
#   14th. The first was only earlier than E's, and is taken back: 1 excess.
# STORE: as RESET, but the reset is a plain store of 1 << 63 in a runtime
#   function (rsb_clear), as the signal wrapper makes. Such a store counts
#   only once the counter's address is known, from the counter's own forms
#   (a cap, a reset, a refill's credit): the first round's refill, charged
#   to no loss, teaches it; the later rounds' are charged to the store.
# TAIL: as RESET, but inner then tail-calls lib, as rsb-stuff tail-calls a
#   C library leaf: `call __rsb_tail_account; jmp lib`, whose check
#   accounts the return lib makes for inner, whose call was counted. It
#   spends the credit the reset left, and the refill it makes is charged to
#   the reset (its check is not one of an uncounted entry:
#   __rsb_tail_account's own frame is not the one it accounts).
# FORMS (ROUNDS 11): as RESET, but in round N inner writes the counter
#   with the Nth of the forms the profile follows (mov, and and shl with
#   each encoding, sizes 8, 4, 2 and 1), leaving no credit, some of them
#   after a cap that leaves 8 or 6. Each round's refill is charged to its
#   form's write (_start's reset teaches the counter's address first).
# KILL: after the rounds, the program kills itself with SIGKILL.

#include "fill.h"

#define COUNTER %fs:8
#define COUNTER_HIGH %fs:12
#define COUNTER_TOP_WORD %fs:14
#define COUNTER_TOP_BYTE %fs:15
#define SYS_getpid 39
#define SYS_kill 62
#define SYS_exit 60
#define SYS_arch_prctl 158
#define ARCH_SET_FS 0x1002
#define SIGKILL 9

	.macro	ENTRY name
	.type	__rsb_entry.\name, @function
__rsb_entry.\name:
	sarq	$5, COUNTER
	.size	__rsb_entry.\name, . - __rsb_entry.\name
	.type	\name, @function
\name:
	.endm

	.macro	CAP8
	movq	cap8_mask(%rip), %r10
	andq	%r10, COUNTER
	.endm

	.macro	RETURN
	shlq	$5, COUNTER
	je	__rsb_refill_return
	ret
	.endm

	.text
	.globl	_start
	.type	_start, @function
_start:
	movl	$SYS_arch_prctl, %eax
	movl	$ARCH_SET_FS, %edi
	leaq	tls(%rip), %rsi
	syscall
	movabsq	$0x8000000000000000, %rax
	movq	%rax, COUNTER
#ifdef FORMS
	call	__rsb_reset_depth
#endif
	movl	$ROUNDS, %ebx
1:
	call	__rsb_entry.driver
	decl	%ebx
	jnz	1b
#ifdef KILL
	movl	$SYS_getpid, %eax
	syscall
	movl	%eax, %edi
	movl	$SIGKILL, %esi
	movl	$SYS_kill, %eax
	syscall
#endif
	movl	$SYS_exit, %eax
	xorl	%edi, %edi
	syscall
	.size	_start, . - _start

#if defined(UNCOUNTED)
ENTRY driver
	leaq	cb(%rip), %rdi
	movl	$CALLS, %esi
	call	sorter
	RETURN
	.size	driver, . - driver

ENTRY cb
	RETURN
	.size	cb, . - cb

# sorter(fn, n): calls fn n times.
	.type	sorter, @function
sorter:
	pushq	%r12
	pushq	%r13
	movq	%rdi, %r12
	movl	%esi, %r13d
1:
	call	*%r12
	decl	%r13d
	jnz	1b
	popq	%r13
	popq	%r12
	ret
	.size	sorter, . - sorter
#elif defined(MOVED)
ENTRY driver
	movl	$20, %edi
	call	__rsb_entry.nest
	RETURN
	.size	driver, . - driver

# nest(n): n nested counted calls including this one; the innermost calls
# lib and resets.
ENTRY nest
	decl	%edi
	jz	1f
	call	__rsb_entry.nest
	jmp	2f
1:
	call	lib
	call	__rsb_reset_depth
2:
	RETURN
	.size	nest, . - nest
#else
ENTRY driver
	call	__rsb_entry.inner
	RETURN
	.size	driver, . - driver

#if defined(FORMS)
ENTRY inner
	call	lib
	movabsq	$0x8000000000000000, %rax
	movl	$63, %ecx
	jmp	*forms - 8(, %rbx, 8)
.Lmovq_reg:
	movq	%rax, COUNTER
	jmp	.Lchecked
.Lmovq_imm:
	movq	$0, COUNTER
	jmp	.Lchecked
.Lmovb:
	CAP8
	movb	$0x80, COUNTER_TOP_BYTE
	jmp	.Lchecked
.Lmovl:
	CAP8
	movl	$0x80000000, COUNTER_HIGH
	jmp	.Lchecked
.Landq_reg:
	andq	%rax, COUNTER
	jmp	.Lchecked
.Landq_imm8:
	andq	$0, COUNTER
	jmp	.Lchecked
.Landl_imm32:
	CAP8
	andl	$0x80000000, COUNTER_HIGH
	jmp	.Lchecked
.Landw_imm16:
	CAP8
	andw	$0x8000, COUNTER_TOP_WORD
	jmp	.Lchecked
.Lshlq_imm:
	shlq	$63, COUNTER
	jmp	.Lchecked
.Lshlq_cl:
	shlq	%cl, COUNTER
	jmp	.Lchecked
.Lshlq_1:
	movq	cap_mask(%rip), %r10
	andq	%r10, COUNTER
	shlq	COUNTER
.Lchecked:
	RETURN
	.size	inner, . - inner

	.section .rodata
	.p2align 3
forms:
	.quad	.Lmovq_reg, .Lmovq_imm, .Lmovb, .Lmovl, .Landq_reg, .Landq_imm8
	.quad	.Landl_imm32, .Landw_imm16, .Lshlq_imm, .Lshlq_cl, .Lshlq_1
cap8_mask:
	.quad	0xff00000000000000	# 8 leading ones: 1 return of credit
	.text
#else
ENTRY inner
	call	lib
#if defined(RESET)
	call	__rsb_reset_depth
#elif defined(CAP)
	movq	cap_mask(%rip), %r10
	andq	%r10, COUNTER
#elif defined(STORE)
	call	rsb_clear
#elif defined(TAIL)
	call	__rsb_reset_depth
	call	__rsb_tail_account
	jmp	lib
#endif
	RETURN
	.size	inner, . - inner

	.type	rsb_clear, @function
rsb_clear:
	movabsq	$0x8000000000000000, %rax
	movq	%rax, COUNTER
	ret
	.size	rsb_clear, . - rsb_clear
#endif
#endif

	.type	lib, @function
lib:
	ret
	.size	lib, . - lib

# The runtime's (runtime/rsb_thunks.S), for an executable's counter.
	.type	__rsb_refill_return, @function
__rsb_refill_return:
	movq	$-1, COUNTER
	FILL_RETURN_BUFFER
	ret
	.size	__rsb_refill_return, . - __rsb_refill_return

	.type	__rsb_tail_account, @function
__rsb_tail_account:
	shlq	$5, COUNTER
	jz	1f
	ret
1:
	movq	$-1, COUNTER
	FILL_RETURN_BUFFER
	ret
	.size	__rsb_tail_account, . - __rsb_tail_account

	.type	__rsb_reset_depth, @function
__rsb_reset_depth:
	movq	$0, COUNTER
	movb	$0x80, COUNTER_TOP_BYTE
	ret
	.size	__rsb_reset_depth, . - __rsb_reset_depth

	.section .rodata
	.p2align 3
cap_mask:
	.quad	0xfc00000000000000	# 6 leading ones: 1 return of credit

	.bss
	.p2align 4
tls:
	.zero	64

	.section .note.GNU-stack, "", @progbits
