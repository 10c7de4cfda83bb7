/*===- decode.c - Just enough x86-64 decoding for the RSB model -----------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The checker only has to recognise the few instructions that matter
 * before they execute: calls and returns (the RSB), the writes to %fs
 * memory with which the runtime and instrumented code update the counter
 * (`sar`, `shl`, `and`, `mov`: the refill profile follows the counter's
 * value, and -v reads the counter a return's `shl` is about to shift),
 * traps (whose SIGTRAP belongs to the program, not to the single-step) and
 * syscalls (which may remap code). Lengths are only needed for the %fs
 * writes, whose RIP-relative operand is relative to the next instruction;
 * everything else is classified by its opcode alone. Calls do not need a
 * length either: the return address is read from the stack after the call
 * has executed.
 *
 *===----------------------------------------------------------------------===*/

#include "decode.h"

#include <string.h>

/* The architectural maximum; longer byte sequences fault (#GP). */
#define MAX_INSN_LENGTH 15

static bool is_legacy_prefix(uint8_t b) {
  switch (b) {
  case 0x66: /* operand size */
  case 0x67: /* address size */
  case 0xf2: /* repne, bnd */
  case 0xf3: /* rep */
  case 0x2e: /* cs, branch hint */
  case 0x3e: /* ds, notrack */
  case 0x26: /* es */
  case 0x64: /* fs */
  case 0x65: /* gs */
  case 0x36: /* ss */
  case 0xf0: /* lock */
    return true;
  default:
    return false;
  }
}

/* What the bytes before the opcode said. */
struct prefixes {
  size_t length;
  uint8_t rex; /* 0 when absent, or when a legacy prefix followed it */
  bool fs;
  bool addr32;
  bool data16; /* 0x66: 16-bit operands and immediates */
};

static void decode_prefixes(const uint8_t *code, size_t avail,
                            struct prefixes *p) {
  memset(p, 0, sizeof *p);
  while (p->length < avail && p->length < MAX_INSN_LENGTH) {
    uint8_t b = code[p->length];
    if (is_legacy_prefix(b)) {
      p->fs |= b == 0x64;
      p->addr32 |= b == 0x67;
      p->data16 |= b == 0x66;
      /* REX only counts right before the opcode. */
      p->rex = 0;
    } else if ((b & 0xf0) == 0x40) {
      p->rex = b;
    } else {
      break;
    }
    p->length++;
  }
}

/*
 * Decodes the ModRM memory operand at code[0] (the ModRM byte). Returns the
 * number of bytes it takes (ModRM, SIB, displacement), or 0 if avail cuts
 * it off or it is a register operand.
 */
static size_t decode_modrm_memory(const uint8_t *code, size_t avail,
                                  const struct prefixes *p,
                                  struct mem_operand *m) {
  if (avail < 1)
    return 0;
  uint8_t modrm = code[0];
  unsigned mod = modrm >> 6, rm = modrm & 7;
  size_t used = 1, disp_size = mod == 1 ? 1 : mod == 2 ? 4 : 0;
  if (mod == 3)
    return 0;
  m->base = (int8_t)(rm | (p->rex & 1) << 3);
  m->index = -1;
  m->scale = 1;
  m->rip_relative = false;
  m->addr32 = p->addr32;
  m->disp = 0;
  if (rm == 4) {
    if (avail < 2)
      return 0;
    uint8_t sib = code[1];
    unsigned index = (sib >> 3 & 7) | (p->rex >> 1 & 1) << 3;
    used = 2;
    m->scale = (uint8_t)(1u << (sib >> 6));
    m->index = index == 4 ? -1 : (int8_t)index; /* 4 without REX.X: none */
    m->base = (int8_t)((sib & 7) | (p->rex & 1) << 3);
    if ((sib & 7) == 5 && mod == 0) {
      m->base = -1; /* disp32 with no base */
      disp_size = 4;
    }
  } else if (rm == 5 && mod == 0) {
    m->base = -1;
    m->rip_relative = true;
    disp_size = 4;
  }
  if (avail < used + disp_size)
    return 0;
  if (disp_size == 1) {
    m->disp = (int8_t)code[used];
  } else if (disp_size == 4) {
    uint32_t d;
    memcpy(&d, code + used, 4);
    m->disp = (int32_t)d;
  }
  return used + disp_size;
}

/*
 * An instruction that writes its ModRM memory operand through %fs: the
 * forms in which instrumented code and the runtime update the counter
 * (the profile tells the counter from other thread-local words by its
 * address). at is the ModRM byte's offset, imm the immediate's size, op
 * and size what it does.
 */
static void decode_fs_write(const uint8_t *code, size_t avail, size_t at,
                            const struct prefixes *p, size_t imm, enum fs_op op,
                            uint8_t size, struct insn *out) {
  if (!p->fs || at >= avail)
    return;
  size_t operand = decode_modrm_memory(code + at, avail - at, p, &out->mem);
  if (operand == 0 || at + operand + imm > avail)
    return;
  out->kind = INSN_FS_WRITE;
  out->op = op;
  out->size = size;
  out->length = (unsigned)(at + operand + imm);
  out->source = -1;
}

/* `and` from a register (21): its number is the ModRM reg field and
 * REX.R. */
static void decode_fs_and_from(const uint8_t *code, size_t avail, size_t at,
                               const struct prefixes *p, uint8_t size,
                               struct insn *out) {
  decode_fs_write(code, avail, at, p, 0, FS_AND, size, out);
  if (out->kind == INSN_FS_WRITE)
    out->source = (int8_t)((code[at] >> 3 & 7) | (p->rex & 4) << 1);
}

/* Group 2 shifts (c1 ib, d1, d3): `shl` (/4) and `sar` (/7). */
static void decode_shift(const uint8_t *code, size_t avail, size_t at,
                         const struct prefixes *p, uint8_t size,
                         struct insn *out) {
  uint8_t opcode = code[at - 1];
  unsigned reg = at < avail ? code[at] >> 3 & 7 : 0;
  if (reg != 4 && reg != 7)
    return;
  decode_fs_write(code, avail, at, p, opcode == 0xc1,
                  reg == 4 ? FS_SHL : FS_SAR, size, out);
  if (out->kind == INSN_FS_WRITE) /* d3 shifts by %cl: count 0 */
    out->count = opcode == 0xc1 ? code[out->length - 1] : opcode == 0xd1;
}

void x86_decode(const uint8_t *code, size_t avail, struct insn *out) {
  struct prefixes p;
  memset(out, 0, sizeof *out);
  out->kind = INSN_OTHER;
  decode_prefixes(code, avail, &p);
  if (p.length >= avail)
    return;
  size_t at = p.length + 1; /* first byte after the opcode */
  bool has_next = at < avail;
  uint8_t next = has_next ? code[at] : 0;
  /* Of the instructions with a full-size operand: REX.W, then 0x66. */
  uint8_t size = p.rex & 8 ? 8 : p.data16 ? 2 : 4;
  size_t imm_size = p.data16 && !(p.rex & 8) ? 2 : 4;
  switch (code[p.length]) {
  case 0xe8: /* call rel32 */
    out->kind = INSN_CALL;
    break;
  case 0xc3: /* ret */
  case 0xc2: /* ret imm16 */
    out->kind = INSN_RET;
    break;
  case 0xca: /* far returns */
  case 0xcb:
    out->kind = INSN_FAR;
    break;
  case 0xff: /* group 5: /2 call near indirect, /3 call far */
    if (has_next && (next >> 3 & 7) == 2)
      out->kind = INSN_CALL;
    else if (has_next && (next >> 3 & 7) == 3)
      out->kind = INSN_FAR;
    break;
  case 0xcc: /* int3 */
  case 0xf1: /* int1 */
    out->kind = INSN_TRAP;
    break;
  case 0xcd: /* int $3 */
    if (has_next && next == 3)
      out->kind = INSN_TRAP;
    break;
  case 0x0f: /* syscall */
    if (has_next && next == 0x05)
      out->kind = INSN_SYSCALL;
    break;
  case 0xc1:
  case 0xd1:
  case 0xd3:
    decode_shift(code, avail, at, &p, size, out);
    break;
  case 0x21: /* and r/m, r */
    decode_fs_and_from(code, avail, at, &p, size, out);
    break;
  case 0x81: /* and r/m, imm32 (imm16): /4 */
  case 0x83: /* and r/m, imm8: /4 */
    if (has_next && (next >> 3 & 7) == 4)
      decode_fs_write(code, avail, at, &p,
                      code[p.length] == 0x83 ? 1 : imm_size, FS_AND, size, out);
    break;
  case 0x89: /* mov r/m, r */
    decode_fs_write(code, avail, at, &p, 0, FS_MOV, size, out);
    break;
  case 0xc7: /* mov r/m, imm32 (imm16): /0 */
    if (has_next && (next >> 3 & 7) == 0)
      decode_fs_write(code, avail, at, &p, imm_size, FS_MOV, size, out);
    break;
  case 0xc6: /* mov r/m8, imm8: /0 */
    if (has_next && (next >> 3 & 7) == 0)
      decode_fs_write(code, avail, at, &p, 1, FS_MOV, 1, out);
    break;
  default:
    break;
  }
}

static uint64_t reg_value(const struct user_regs_struct *r, int n) {
  switch (n) {
  case 0:
    return r->rax;
  case 1:
    return r->rcx;
  case 2:
    return r->rdx;
  case 3:
    return r->rbx;
  case 4:
    return r->rsp;
  case 5:
    return r->rbp;
  case 6:
    return r->rsi;
  case 7:
    return r->rdi;
  case 8:
    return r->r8;
  case 9:
    return r->r9;
  case 10:
    return r->r10;
  case 11:
    return r->r11;
  case 12:
    return r->r12;
  case 13:
    return r->r13;
  case 14:
    return r->r14;
  default:
    return r->r15;
  }
}

uint64_t x86_fs_address(const struct insn *insn, uint64_t rip,
                        const struct user_regs_struct *regs) {
  const struct mem_operand *m = &insn->mem;
  uint64_t ea = (uint64_t)(int64_t)m->disp;
  if (m->rip_relative)
    ea += rip + insn->length;
  if (m->base >= 0)
    ea += reg_value(regs, m->base);
  if (m->index >= 0)
    ea += reg_value(regs, m->index) * m->scale;
  if (m->addr32)
    ea = (uint32_t)ea;
  return regs->fs_base + ea;
}
