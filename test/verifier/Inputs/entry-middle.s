# A call past the first byte of an accounting entry that another object
# defines: the relocation's addend says where it lands.
	.text
	.globl	caller
	.type	caller,@function
caller:
	call	__rsb_entry.elsewhere+2
	call	__rsb_entry.elsewhere
	.size	caller, .-caller
	.section .note.GNU-stack,"",@progbits
