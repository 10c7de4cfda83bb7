# A cycle through a call (direct or mutual recursion) has no bound, and so
# has every function that reaches one.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - --explain uses_rec | FileCheck %s
# CHECK: {{^}}even unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}odd unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}rec unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}uses_rec unbounded unbounded{{$}}
# CHECK: # explain uses_rec depth: unbounded: uses_rec -via-> rec: recursion: rec calls rec
	.include "depth-fn.s"

	fn	rec
	test	%edi, %edi
	je	1f
	dec	%edi
	call	rec_l
1:	ret
	endfn	rec

	fn	even
	test	%edi, %edi
	je	1f
	dec	%edi
	call	odd_l
1:	ret
	endfn	even

	fn	odd
	test	%edi, %edi
	je	1f
	dec	%edi
	call	even_l
1:	ret
	endfn	odd

	fn	uses_rec
	call	rec_l
	ret
	endfn	uses_rec
