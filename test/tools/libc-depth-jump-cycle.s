# A cycle of jumps only (tail calls back and forth) pushes no return address:
# it is a loop, not recursion, and the depth is that of the calls made on
# the way (here one call of a leaf).
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib -Wa,-I%S/Inputs %s -o %t.so
# RUN: %libc-depth %t.so -o - | FileCheck %s
# CHECK: {{^}}ping 1 1{{$}}
# CHECK-NEXT: {{^}}pong 1 1{{$}}
	.include "depth-fn.s"

	fn	leaf
	ret
	endfn	leaf

	fn	ping
	test	%edi, %edi
	je	1f
	dec	%edi
	jmp	pong_l
1:	ret
	endfn	ping

	fn	pong
	call	leaf_l
	jmp	ping_l
	endfn	pong
