/*===- rsb-check.h - Shared declarations of the RSB model checker -*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check runs a program under ptrace, single-steps every instruction of
 * every thread and process it creates, and replays each call and return on
 * a model of the CPU's 16-entry Return Stack Buffer. It measures what the
 * static checks and the runtime's own statistics cannot: whether any return
 * actually executed would have found the RSB empty (and been predicted from
 * the attacker-trainable BTB), and how much room the RSB still had when the
 * runtime decided to refill it.
 *
 * The pieces:
 *   decode.c   just enough x86-64 decoding to find calls, returns and the
 *              runtime's counter shift
 *   symbols.c  /proc/PID/maps and ELF symbol tables: the runtime's thunks
 *              and names for the report
 *   trace.c    the ptrace event loop and the per-thread RSB model
 *   main.c     options, starting the program, reports
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_H
#define RSB_CHECK_H

/* process_vm_readv, __WALL, strsignal; every source includes this first. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/user.h>

/* ---- decode.c ---------------------------------------------------------- */

/* The instructions the model cares about; everything else is INSN_OTHER. */
enum insn_kind {
  INSN_OTHER,
  INSN_CALL,    /* e8, ff /2: pushes one RSB entry */
  INSN_RET,     /* c3, c2 iw: pops one */
  INSN_FAR,     /* far call or return: not modelled, counted as unknown */
  INSN_SHL_FS,  /* shl with an %fs memory operand: the runtime's counter */
  INSN_TRAP,    /* int3, int $3, int1: raises a SIGTRAP of the program's own */
  INSN_SYSCALL, /* may change the mappings the symbolizer caches */
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
  unsigned length;        /* bytes; only meaningful for INSN_SHL_FS */
  struct mem_operand mem; /* INSN_SHL_FS only */
};

/* Decodes the instruction starting at code[0]; avail bytes are readable.
 * An instruction cut off by avail is INSN_OTHER. */
void x86_decode(const uint8_t *code, size_t avail, struct insn *out);

/* The linear address of insn's %fs-relative memory operand. */
uint64_t x86_fs_address(const struct insn *insn, uint64_t rip,
                        const struct user_regs_struct *regs);

/* ---- symbols.c --------------------------------------------------------- */

struct elf_image; /* one ELF file's symbols, cached for the whole run */

/* One executable mapping of a process. */
struct region {
  uint64_t start, end, offset;
  struct elf_image *image; /* NULL: anonymous, [vdso], unreadable file */
  char *name;              /* the path or [name] from the maps file */
};

/* The executable mappings of one process, read lazily from its maps file. */
struct addr_space {
  struct region *regions;
  size_t count, capacity;
  bool stale; /* a mapping may have changed under a cached address */
};

/* The executable mapping containing addr, rereading /proc/TID/maps when the
 * cache does not know it; NULL if none. */
const struct region *as_lookup(struct addr_space *as, pid_t tid, uint64_t addr);
void as_clear(struct addr_space *as);

/* True when addr lies in one of the runtime's refill thunks. */
bool as_in_refill_thunk(struct addr_space *as, pid_t tid, uint64_t addr);

/* Writes "symbol+0xoff (file)" for addr into buf. */
void as_describe(struct addr_space *as, pid_t tid, uint64_t addr, char *buf,
                 size_t size);

/* ---- trace.c ----------------------------------------------------------- */

struct counts {
  uint64_t returns, underflows, trap, mispredicted, correct;
  uint64_t calls, refills, unknown;
  uint64_t instructions;      /* single-steps that executed an instruction */
  unsigned min_rsb_at_refill; /* meaningful when refills > 0 */
  unsigned processes, threads;
};

struct options {
  FILE *out;
  bool verbose;
  bool list_underflows;
  bool fail_on_underflow;
  unsigned rsb_size;
};

/* Reads len bytes of the tracee's memory at addr into buf; returns how many
 * bytes could be read. */
size_t mem_read(pid_t tid, uint64_t addr, void *buf, size_t len);

/* Traces the stopped child `pid` (stopped right after its execve) and every
 * task it creates until all are gone. Fills *total and returns the exit
 * status of `pid` as a shell reports it (128 + signal for a crash). */
int trace_run(pid_t pid, const struct options *opts, struct counts *total);

/* ---- main.c ------------------------------------------------------------ */

/* Allocation that cannot fail: rsb-check exits (125) when memory runs out. */
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* Prints the counts of one process, or with `total` of all of them. */
void print_counts(FILE *out, const struct counts *c, bool total);
void add_counts(struct counts *sum, const struct counts *c);

#endif /* RSB_CHECK_H */
