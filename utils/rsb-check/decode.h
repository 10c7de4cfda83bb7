/*===- decode.h - x86-64 decoding of calls and returns -------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_DECODE_H
#define RSB_CHECK_DECODE_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/user.h>

/* The instructions the model cares about; everything else is INSN_OTHER. */
enum insn_kind {
  INSN_OTHER,
  INSN_CALL,     /* e8, ff /2: pushes one RSB entry */
  INSN_RET,      /* c3, c2 iw: pops one */
  INSN_FAR,      /* far call or return: not modelled, counted as unknown */
  INSN_FS_WRITE, /* sar, shl, and or mov writing an %fs memory operand:
                    the forms that update the runtime's counter */
  INSN_TRAP,     /* int3, int $3, int1: raises a SIGTRAP of the program's
                    own */
  INSN_SYSCALL,  /* may change the mappings the symbolizer caches */
};

/* Which kind of INSN_FS_WRITE. */
enum fs_op {
  FS_SAR, /* sar: an accounting entry's or a counted call's */
  FS_SHL, /* shl: a return's check */
  FS_AND, /* and: a cap */
  FS_MOV, /* mov: a reset, a refill's credit, any other store */
};

/* A decoded ModRM memory operand (64-bit mode). */
struct mem_operand {
  int8_t base;  /* register number 0-15, or -1 */
  int8_t index; /* register number 0-15, or -1 */
  uint8_t scale;
  bool rip_relative;
  bool addr32; /* 0x67 prefix: the address wraps at 32 bits */
  int32_t disp;
};

struct insn {
  enum insn_kind kind;
  /* INSN_FS_WRITE only: */
  unsigned length; /* bytes */
  struct mem_operand mem;
  enum fs_op op;
  uint8_t size;  /* bytes written */
  uint8_t count; /* of a shift: its immediate, 1 for d1, 0 for %cl */
  int8_t source; /* of `and` from a register: its number, else -1 */
};

/* Decodes the instruction starting at code[0]; avail bytes are readable.
 * An instruction cut off by avail is INSN_OTHER. */
void x86_decode(const uint8_t *code, size_t avail, struct insn *out);

/* The linear address of insn's %fs-relative memory operand. */
uint64_t x86_fs_address(const struct insn *insn, uint64_t rip,
                        const struct user_regs_struct *regs);

#endif /* RSB_CHECK_DECODE_H */
