/*===- symbols.h - Mappings and ELF symbols of a tracee ------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_SYMBOLS_H
#define RSB_CHECK_SYMBOLS_H

#include "options.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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
  /* Take every mapping, not only executable ones: QEMU maps the code of
   * the program it emulates readable but not executable on the host. */
  bool any_permissions;
};

/* The executable mapping containing addr, rereading /proc/TID/maps when the
 * cache does not know it; NULL if none. */
const struct region *as_lookup(struct addr_space *as, pid_t tid, uint64_t addr);
void as_clear(struct addr_space *as);

/* True when addr lies in one of the runtime's refill thunks. */
bool as_in_refill_thunk(struct addr_space *as, pid_t tid, uint64_t addr);

/* True when addr lies in __rsb_reset_depth, whose one call pushes an RSB
 * entry at a trap for its own return and never returns, or in
 * __rsb_signal_fill, whose 16 calls do the same after a signal handler. */
bool as_in_trap_push(struct addr_space *as, pid_t tid, uint64_t addr);

/* True when addr lies in the runtime's thunks and its assembly helpers that
 * have a role (the reset, the copy of the indirect call, ...) or in a
 * function rsb-stuff compiled (one with an `__rsb_entry.` symbol); false for
 * other code and for files without symbols. */
bool as_in_instrumented_code(struct addr_space *as, pid_t tid, uint64_t addr);

/* What the refill profile makes of writes to the counter in code at an
 * address. */
enum code_role {
  CODE_OTHER,        /* neither rsb-stuff's runtime nor code it compiled */
  CODE_INSTRUMENTED, /* a function rsb-stuff compiled, or the runtime's */
  CODE_ENTRY,        /* an accounting entry (`__rsb_entry.f`) */
  CODE_REFILL,       /* __rsb_return_thunk, __rsb_refill_return */
  CODE_RESET,        /* __rsb_reset_depth: its stores reset for its caller */
  CODE_TAIL_ACCOUNT, /* __rsb_tail_account(_flags): its check accounts the
                        return of the code its caller tail-calls; it refills
                        too */
  CODE_ICALL,        /* __rsb_icall_r11: its `sar` counts the call that
                        entered it (which its jump to the target continues),
                        its stores reset for its caller */
  CODE_COUNT_CALL,   /* __rsb_count_call: its `sar` counts the call that
                        entered the entry that called it */
  CODE_SIGNAL_FILL,  /* __rsb_signal_fill: 16 calls that push RSB entries at
                        traps and never return */
};

/* The role of the function containing addr (CODE_OTHER for files without
 * symbols). The runtime's functions are those named `__rsb_...` and
 * `rsb_...`. */
enum code_role as_code_role(struct addr_space *as, pid_t tid, uint64_t addr);

/* Writes "symbol+0xoff (file)" for addr into buf. */
void as_describe(struct addr_space *as, pid_t tid, uint64_t addr, char *buf,
                 size_t size);

#endif /* RSB_CHECK_SYMBOLS_H */
