/*===- rsb_property_note.h - The CET property note of the runtime's .S files -===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Marks an assembly object compatible with indirect branch tracking and
 * shadow stacks. The linker marks its output only when every input is
 * marked, so each of the runtime's assembly files carries the note, as its C
 * files do (-fcf-protection=full): linking the runtime keeps a program's
 * CET marking.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_PROPERTY_NOTE_H
#define RSB_PROPERTY_NOTE_H

/* .note.gnu.property (the x86-64 psABI's program properties). */
#define NT_GNU_PROPERTY_TYPE_0 5
#define GNU_PROPERTY_X86_FEATURE_1_AND 0xc0000002
#define GNU_PROPERTY_X86_FEATURE_1_IBT 1
#define GNU_PROPERTY_X86_FEATURE_1_SHSTK 2

.macro CET_PROPERTY_NOTE
	.pushsection .note.gnu.property, "a", @note
	.p2align 3
	.long	4			/* name size: "GNU" and its NUL */
	.long	.Lproperty_end - .Lproperty_start	/* descriptor size */
	.long	NT_GNU_PROPERTY_TYPE_0
	.asciz	"GNU"
.Lproperty_start:
	.long	GNU_PROPERTY_X86_FEATURE_1_AND
	.long	4			/* the property's data size */
	.long	GNU_PROPERTY_X86_FEATURE_1_IBT | GNU_PROPERTY_X86_FEATURE_1_SHSTK
	.p2align 3			/* properties are 8-byte aligned */
.Lproperty_end:
	.popsection
.endm

#endif /* RSB_PROPERTY_NOTE_H */
