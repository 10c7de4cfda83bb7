/*===- rsb_start.S - A thread pointer for static programs' early code ----===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The entry point of static executables: rsb-ld links them with
 * `-e __rsb_start` and defines __rsb_start_program as the program's own
 * entry (_start, or what -e named).
 *
 * Instrumented code reaches the counter through the thread pointer, %fs.
 * A static program starts with %fs at 0, and the C library sets up its
 * thread-local storage only after it has bound the program's ifunc symbols
 * (glibc's __libc_start_main: ARCH_SETUP_IREL, then ARCH_SETUP_TLS), so a
 * resolver that calls instrumented code would fault; a program without the
 * C library (-nostdlib) never gets a thread pointer at all. So before the
 * program's entry runs, the thread gets one of its own: a zeroed block
 * that holds the counter (at its usual offset from the thread pointer) and
 * a TCB (the self pointer at %fs:0; a stack protector canary of 0 at
 * %fs:0x28). glibc's TLS set-up replaces it; a program without a C library
 * keeps it, and its counter with it.
 *
 * Nothing before the C library's start-up can be called here (not even
 * its ifunc'd memcpy): system calls only.
 *
 *===----------------------------------------------------------------------===*/

#include "rsb_property_note.h"

#define SYS_mmap 9
#define SYS_write 1
#define SYS_arch_prctl 158
#define SYS_exit_group 231
#define STDERR 2
/* What a program that could not be started exits with (as env(1)). */
#define EXIT_CANNOT_START 127
#define ARCH_SET_FS 0x1002
#define PROT_READ_WRITE 3
#define MAP_PRIVATE_ANONYMOUS 0x22
#define PAGE_SIZE 4096
/* What the block keeps above the thread pointer: the TCB's fields that
 * compiled code reads (self pointer, stack protector canary at 0x28,
 * split-stack's limit at 0x70), with room to spare. */
#define TCB_SIZE 256

/*
 * %rax = the lowest offset from the thread pointer that instrumented code
 * uses: the counter's, or the statistics block's below it.
 */
.macro LOWEST_TLS_OFFSET
	movq	$__rsb_depth@tpoff, %rax
#ifdef RSB_STATS
	movq	$__rsb_stats@tpoff, %rcx
	cmpq	%rax, %rcx
	cmovlq	%rcx, %rax
#endif
.endm

/* %rsi = bytes of the block: the offsets below the thread pointer and the
 * TCB above it, in whole pages. Takes %rax from LOWEST_TLS_OFFSET. */
.macro BLOCK_SIZE
	movq	%rax, %rsi
	negq	%rsi			/* the offsets are negative */
	addq	$(TCB_SIZE + PAGE_SIZE - 1), %rsi
	andq	$-PAGE_SIZE, %rsi
.endm

/* %rax = a fresh zeroed block of %rsi bytes; jumps to \failed if none. */
.macro MAP_BLOCK failed
	movl	$SYS_mmap, %eax
	xorl	%edi, %edi
	movl	$PROT_READ_WRITE, %edx
	movl	$MAP_PRIVATE_ANONYMOUS, %r10d
	movq	$-1, %r8
	xorl	%r9d, %r9d
	syscall				/* clobbers %rcx and %r11 */
	cmpq	$-PAGE_SIZE, %rax	/* -errno is an error */
	ja	\failed
.endm

/* Points %fs at the block's TCB (%rax + %rsi - TCB_SIZE), whose first
 * word is its own address (%fs:0, what the C library calls THREAD_SELF). */
.macro SET_THREAD_POINTER
	leaq	-TCB_SIZE(%rax,%rsi), %rsi
	movq	%rsi, (%rsi)
	movl	$SYS_arch_prctl, %eax
	movl	$ARCH_SET_FS, %edi
	syscall
.endm

	.text
	.p2align 4
	.globl	__rsb_start
	.type	__rsb_start, @function
__rsb_start:
	/* The process's entry state that the program's entry reads: %rsp
	 * (argc, argv, the environment, the auxiliary vector) and %rdx (a
	 * finalizer for atexit, 0 without a dynamic linker). Other registers
	 * carry nothing. No unwinding stops here: undefine the return column.
	 */
	.cfi_startproc
	.cfi_undefined rip
	endbr64
	movq	%rdx, %r12
	LOWEST_TLS_OFFSET
	BLOCK_SIZE
	MAP_BLOCK 1f
	SET_THREAD_POINTER
	/* RSB_DEPTH_INIT (rsb_stuff.h): depth zero, no credit. */
	movb	$0x80, %fs:__rsb_depth@tpoff + 7
	movq	%r12, %rdx
	jmp	__rsb_start_program
1:	/* No memory for the block: say so rather than fault later. */
	movl	$SYS_write, %eax
	movl	$STDERR, %edi
	leaq	.Lno_block(%rip), %rsi
	movl	$(.Lno_block_end - .Lno_block), %edx
	syscall
	movl	$SYS_exit_group, %eax
	movl	$EXIT_CANNOT_START, %edi
	syscall
	ud2
	.cfi_endproc
	.size	__rsb_start, . - __rsb_start

	.section .rodata, "a", @progbits
.Lno_block:
	.ascii	"rsb-stuff: cannot map the thread pointer's block at start-up\n"
.Lno_block_end:

	CET_PROPERTY_NOTE

	.section .note.GNU-stack, "", @progbits
