# A call to a function that never returns (no `ret` and no jump to a
# function that returns, on any path; glibc's abort, __assert_fail,
# __stack_chk_fail) adds nothing, however deep the function goes: no return
# follows it. A function that returns on some path counts as usual. A
# function whose code ends with a call (the compiler's noreturn call site)
# does not return there either.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}check 1 1{{$}}
# CHECK-NEXT: {{^}}check_maybe 4 4{{$}}
# CHECK: {{^}}d2 2 2{{$}}
# CHECK-NEXT: {{^}}die 3 3{{$}}
# CHECK-NEXT: {{^}}die_indirect unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}die_via_jump 3 3{{$}}
# CHECK-NEXT: {{^}}ends_in_call 3 3{{$}}
# CHECK-NEXT: {{^}}maybe_die 3 3{{$}}
	.include "depth-fn.s"

	fn	d0
	ret
	endfn	d0

	fn	d1
	call	d0_l
	ret
	endfn	d1

	fn	d2
	call	d1_l
	ret
	endfn	d2

	# Never returns: calls d2, then traps.
	fn	die
	call	d2_l
	ud2
	endfn	die

	# Never returns either: its only way out is a jump to die.
	fn	die_via_jump
	call	d2_l
	jmp	die_l
	endfn	die_via_jump

	# No ret, but an indirect jump could go back: not noreturn (and
	# unbounded).
	fn	die_indirect
	jmp	*(%rdi)
	endfn	die_indirect

	# Returns when %edi is 0.
	fn	maybe_die
	test	%edi, %edi
	jne	1f
	ret
1:	call	d2_l
	hlt
	endfn	maybe_die

	# Ends with a call and nothing after it in its FDE: noreturn here.
	fn	ends_in_call
	call	d2_l
	endfn	ends_in_call

	# Counts d0, not die / die_via_jump / ends_in_call (3 levels deep).
	fn	check
	call	d0_l
	test	%edi, %edi
	je	1f
	call	die_l
1:	test	%esi, %esi
	je	2f
	call	die_via_jump_l
2:	test	%edx, %edx
	je	3f
	call	ends_in_call_l
3:	ret
	endfn	check

	fn	check_maybe
	call	maybe_die_l
	ret
	endfn	check_maybe
