# An exported function with neither an FDE nor a symbol size has no known
# end: unbounded (the tool fails closed), while one with a size but no FDE
# (hand-written code without CFI) is analysed within its size.
# RUN: %clang --target=x86_64-linux-gnu -shared -nostdlib %s -o %t.so
# RUN: %libc-depth %t.so -o - --explain no_size | FileCheck %s
# CHECK: {{^}}no_size unbounded unbounded{{$}}
# CHECK-NEXT: {{^}}sized 0 0{{$}}
# CHECK: # explain no_size depth: unbounded: no_size: no FDE and no symbol size: the function's bounds are unknown
	.text
	.globl	no_size
	.type	no_size,@function
no_size:
	ret
	.globl	sized
	.type	sized,@function
sized:
	ret
	.size	sized, .-sized
