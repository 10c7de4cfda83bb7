# A call through the PLT or the GOT to a symbol (an R_X86_64_JUMP_SLOT or
# GLOB_DAT relocation) is unbounded in the first column: the symbol may be
# interposed (glibc calls its own malloc and free through free@plt so that
# an interposed allocator is used) or lives in another object. The second
# column assumes the library's own definition is used, when it has one.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - --explain calls_own --explain calls_ext | FileCheck %s
# CHECK: {{^}}calls_ext unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}calls_got unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}calls_own unbounded 2{{$}}
# CHECK-NEXT: {{^}}calls_own_got unbounded 2{{$}}
# CHECK-NEXT: {{^}}d0 0 0{{$}}
# CHECK-NEXT: {{^}}own_d1 1 1{{$}}
# CHECK-NEXT: {{^}}tail_own unbounded 1{{$}}
# CHECK: # explain calls_own depth: unbounded: calls_own -via-> own_d1@plt: calls own_d1 through the PLT/GOT (may be interposed)
# CHECK: # explain calls_own own: 2: calls_own -call-> own_d1@plt -jump-> own_d1 -call-> d0
# CHECK: # explain calls_ext depth: unbounded: calls_ext -via-> ext_func@plt: calls ext_func through the PLT/GOT (may be interposed)
# CHECK: # explain calls_ext own: unbounded: calls_ext -via-> ext_func@plt: calls ext_func, defined in another object
	.include "depth-fn.s"

	fn	d0
	ret
	endfn	d0

	fn	own_d1
	call	d0_l
	ret
	endfn	own_d1

	fn	calls_own
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	own_d1@PLT
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_own

	fn	calls_own_got
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	*own_d1@GOTPCREL(%rip)
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_own_got

	fn	tail_own
	jmp	own_d1@PLT
	endfn	tail_own

	fn	calls_ext
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	ext_func@PLT
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_ext

	fn	calls_got
	push	%rax
	.cfi_adjust_cfa_offset 8
	call	*ext_func@GOTPCREL(%rip)
	pop	%rax
	.cfi_adjust_cfa_offset -8
	ret
	endfn	calls_got
