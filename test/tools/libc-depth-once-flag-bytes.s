# Which bytes are once-flags (stay set once set): tested by some `cmpb
# $0x0,F(%rip)`; every other reference a read or `movb $0x1,F(%rip)`; the
# address never taken (no lea, relocation or absolute operand); not
# exported; no store below it wide enough to reach it. With symbols (here
# the library's own .symtab; glibc's from its debug file) F must start a
# data object of at most 8 bytes; stripped, no address within 64 bytes
# below F may be taken. Each alloc_* runs an unbounded init only while its
# byte is 0: a fourth column only for the real once-flag.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wl,-z,notext -Wa,-I%S/Inputs %s -o %t.so
# RUN: llvm-nm %t.so > %t.out
# RUN: %libc-depth %t.so -o - >> %t.out
# RUN: FileCheck %s < %t.out
# Stripped (no symbols, no debug file): no once-flags at all.
# RUN: llvm-strip --strip-all %t.so -o %t.stripped.so
# RUN: %libc-depth %t.stripped.so -o - | FileCheck %s --check-prefix=STRIPPED
# A `btr %reg, m(%rip)` anywhere: its 64-bit bit offset reaches any byte.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wl,-z,notext -Wa,-I%S/Inputs -Wa,--defsym,BITSTORE=1 %s -o %t.btr.so
# RUN: %libc-depth %t.btr.so -o - | FileCheck %s --check-prefix=STRIPPED
# STRIPPED-NOT: {{ [0-9]+@}}
# STRIPPED:     {{^}}alloc_flag unbounded unbounded{{$}}
# STRIPPED-NOT: {{ [0-9]+@}}
# CHECK:      {{^0*}}[[FLAG:[1-9a-f][0-9a-f]*]] b flag{{$}}
# CHECK:      {{^}}alloc_absolute unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_alias unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_cleared unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_cmpxchg unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_escaped unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_exported unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_flag unbounded unbounded 0@[[FLAG]]{{$}}
# CHECK-NEXT: {{^}}alloc_member unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_overlapped unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}alloc_untyped unbounded unbounded{{$}}
	.include "depth-fn.s"

	.macro	byte name
	.type	\name, @object
	.size	\name, 1
\name:	.byte	0
	.endm

	.bss
	byte	flag
	byte	cleared
	byte	escaped
	byte	absolute
	byte	xchged
	.p2align 3
	.long	0			# another object, below `overlapped`
	byte	overlapped
	.type	pair, @object		# a two-byte structure
	.size	pair, 2
pair:	.byte	0, 0
	.type	big, @object		# 16 bytes, and a byte symbol at its start
	.size	big, 16
	.type	alias, @object
	.size	alias, 1
big:
alias:	.zero	16
	.globl	exported
	.protected exported		# exported, referenced directly
	byte	exported

	.data				# an array without a symbol type or size
array:	.zero	8
	byte	untyped
	.text

	fn	init			# unbounded: an indirect call
	call	*%rax
	ret
	endfn	init

	.macro	alloc name, byte
	fn	\name
	cmpb	$0, \byte(%rip)
	je	1f
	ret
1:	call	init_l
	movb	$1, \byte(%rip)
	ret
	endfn	\name
	.endm

	alloc	alloc_flag, flag

# Set back to 0.
	alloc	alloc_cleared, cleared
	fn	clear
	movb	$0, cleared(%rip)
	ret
	endfn	clear

# Its address escapes: a store through it is not seen.
	alloc	alloc_escaped, escaped
	fn	escape
	lea	escaped(%rip), %rax
	ret
	endfn	escape

# An absolute reference (a text relocation) takes the address too.
	alloc	alloc_absolute, absolute
	fn	clear_absolute
	movabs	$absolute, %rax
	movb	$0, (%rax)
	ret
	endfn	clear_absolute

# `lock cmpxchg` compares, and stores.
	alloc	alloc_cmpxchg, xchged
	fn	exchange
	xor	%eax, %eax
	lock cmpxchg %cl, xchged(%rip)
	ret
	endfn	exchange

# A `movl` 3 bytes below writes the flag's byte too.
	alloc	alloc_overlapped, overlapped
	fn	clear_wide
	movl	$0, overlapped-3(%rip)
	ret
	endfn	clear_wide

# The second byte of a structure whose address is taken.
	alloc	alloc_member, pair+1
	fn	take_pair
	lea	pair(%rip), %rax
	ret
	endfn	take_pair

# Exported: another object can write it.
	alloc	alloc_exported, exported

# A byte symbol at the start of a larger object whose inner address is
# taken.
	alloc	alloc_alias, alias
	fn	take_big
	lea	big+8(%rip), %rax
	ret
	endfn	take_big

# A byte object after an untyped label whose address is taken: the label
# may stand for an array that holds it.
	alloc	alloc_untyped, untyped
	fn	take_array
	lea	array(%rip), %rax
	ret
	endfn	take_array

	.ifdef	BITSTORE
	fn	clear_bit
	btr	%rax, big(%rip)
	ret
	endfn	clear_bit
	.endif
