# An IFUNC is as deep as its deepest candidate: the candidates are the
# functions its resolver loads with `lea` (the resolver runs at load time
# and may pick any of them). Calls inside the library go through a PLT
# entry whose GOT slot has an R_X86_64_IRELATIVE relocation (`*ABS*+0x...@plt`
# in objdump) naming the resolver; the exported IFUNC symbol is the same.
# Here the candidates are a leaf and a function of depth 2.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: llvm-readelf -r %t.so | FileCheck %s --check-prefix=RELOC
# RELOC: R_X86_64_IRELATIVE
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}sel 2 2{{$}}
# CHECK-NEXT: {{^}}tail_sel 2 2{{$}}
# CHECK-NEXT: {{^}}uses_sel 3 3{{$}}
# CHECK-NEXT: {{^}}v_deep 2 2{{$}}
# CHECK-NEXT: {{^}}v_shallow 0 0{{$}}
	.include "depth-fn.s"

	fn	d0
	ret
	endfn	d0

	fn	d1
	call	d0_l
	ret
	endfn	d1

	fn	v_shallow
	ret
	endfn	v_shallow

	fn	v_deep
	call	d1_l
	ret
	endfn	v_deep

	.type	sel_resolver,@function
	.p2align 4
sel_resolver:
	.cfi_startproc
	lea	v_shallow_l(%rip), %rax
	lea	v_deep_l(%rip), %rdx
	test	%edi, %edi
	cmovne	%rdx, %rax
	ret
	.cfi_endproc
	.size	sel_resolver, .-sel_resolver

	# The exported IFUNC and a hidden one for calls inside the library.
	.globl	sel
	.type	sel,@gnu_indirect_function
	.set	sel, sel_resolver
	.globl	sel_h
	.hidden	sel_h
	.type	sel_h,@gnu_indirect_function
	.set	sel_h, sel_resolver

	fn	uses_sel
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	sel_h@PLT
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	uses_sel

	fn	tail_sel
	jmp	sel_h@PLT
	endfn	tail_sel
