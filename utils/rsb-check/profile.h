/*===- profile.h - The refill profile: where credit was lost -------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_PROFILE_H
#define RSB_CHECK_PROFILE_H

#include "decode.h"
#include "sites.h"
#include "symbols.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What an executed write to the counter means, told from its instruction
 * and the role of the code it lies in. The shifts by 5 of a quadword are
 * taken to be the counter's wherever they write: rsb-stuff's code shifts
 * nothing else by 5. Of the other writes only those of the counter's own
 * forms teach the profile where the counter is; the rest count when they
 * write there. */
enum counter_write {
  WRITE_NONE,       /* not followed: code that is not rsb-stuff's */
  WRITE_ENTRY_SAR,  /* an accounting entry's `sar $5` (or __rsb_icall_r11's,
                       before its jump): counts the call that entered it */
  WRITE_CALL_SAR,   /* any other `sar $5` (counted indirect calls, table
                       calls): counts the next call */
  WRITE_CALLER_SAR, /* __rsb_count_call's `sar $5`: counts the call that
                       entered its caller, an entry of code optimised for
                       size */
  WRITE_CHECK,      /* `shl $5`: a return's check, of the innermost frame */
  WRITE_TAIL_CHECK, /* `shl $5` in __rsb_tail_account: the check of the
                       return its caller's tail call will make */
  WRITE_CAP,        /* `and %r10`: a cap (llvm-pass/RSBStuffCaps.cpp) */
  WRITE_RESET,      /* a store of __rsb_reset_depth (or __rsb_icall_r11): a
                       reset for its caller */
  WRITE_CREDIT,     /* a store of a refill: the credit */
  WRITE_STORE,      /* any other write (the signal wrapper's reset, ...) */
};

static inline bool counter_write_is_shift(enum counter_write w) {
  return w == WRITE_ENTRY_SAR || w == WRITE_CALL_SAR || w == WRITE_CALLER_SAR ||
         w == WRITE_CHECK || w == WRITE_TAIL_CHECK;
}

/* How the profile takes a write of insn in code of the given role. */
enum counter_write counter_write_of(const struct insn *insn,
                                    enum code_role role);

/* Where the program's counter lost credit that the exact counter kept. */
enum loss_kind {
  LOSS_NONE,      /* no loss seen (yet) */
  LOSS_RESET,     /* site: the call of __rsb_reset_depth */
  LOSS_CAP,       /* site: the `and` */
  LOSS_UNCOUNTED, /* site: the call that entered a function without its
                     accounting entry; check: that function's return check */
  LOSS_STORE,     /* site: the write */
};

struct loss {
  uint32_t kind; /* enum loss_kind */
  uint64_t site, check;
};

/* A call on the profile's shadow call stack. */
struct shadow_frame {
  uint64_t ret_addr, call_addr;
  bool counted; /* the call was counted (an entry's or a call site's sar) */
};

/* Whether the thread's refills and the exact counter's are paired up. */
enum unpaired {
  UNPAIRED_NONE,
  UNPAIRED_EXCESS, /* the last refill was the program's alone (charged) */
  UNPAIRED_IDEAL,  /* the last refill was the exact counter's alone */
};

/* What the return that ended a refill decided; profile_settle acts on it. */
enum verdict {
  VERDICT_NONE,
  VERDICT_EXCESS,    /* charge an excess refill to the last loss */
  VERDICT_TAKE_BACK, /* the exact counter refilled too: take the charge back */
};

/* One thread's profile (--refill-profile). */
struct profile {
  uint64_t counter;      /* the program's counter, as its writes left it */
  uint64_t counter_addr; /* 0 until its first cap, reset or refill */
  struct shadow_frame *frames;
  size_t depth, capacity;
  bool count_next_call; /* a call site's sar ran: the next call is counted */
  bool after_call;      /* the last call or return was a call */
  bool refill_begun;    /* the program began a refill: judged at its return */
  enum unpaired unpaired;
  uint32_t charged; /* the loss entry charged for UNPAIRED_EXCESS */
  enum verdict verdict;
  struct loss last_loss;
};

struct profile *profile_new(void);
void profile_free(struct profile *p);
/* fork: the child's thread continues from its parent's; no charge made in
 * the parent's loss list is taken back in the child's. */
struct profile *profile_copy(const struct profile *src);
void profile_forget_charges(struct profile *p);

/* The model's calls and returns (model.c): ideal says that the exact
 * counter refilled at this return, began_refill that this call began one
 * of the program's refills. */
void profile_call(struct profile *p, uint64_t call_addr, uint64_t ret_addr,
                  bool refill_call, bool began_refill);
void profile_ret(struct profile *p, uint64_t target, bool ideal);

/* The writes to the counter, in the order they executed among the calls
 * and returns; exact is the exact counter's value. A shift (WRITE_ENTRY_SAR
 * to WRITE_TAIL_CHECK) by the instruction at insn_addr: */
void profile_shift(struct profile *p, uint64_t exact, enum counter_write w,
                   uint64_t insn_addr);
/* Any other write, of size bytes of value at addr: */
void profile_store(struct profile *p, uint64_t exact, enum counter_write w,
                   uint64_t insn_addr, uint64_t addr, unsigned size,
                   uint64_t value);

/* ---- The loss list: excess refills per loss site ----------------------- */

#define LOSS_WHERE_SIZE 512
/* Loss sites listed per process; more are counted in loss_list.dropped. */
#define LOSS_LIST_CAPACITY 4096

struct loss_site {
  struct loss loss;
  uint64_t count;              /* excess refills charged to it */
  char where[LOSS_WHERE_SIZE]; /* symbolized when first charged */
};

/* Fixed capacity, possibly in memory shared with another process (the
 * record file), like the underflow list. */
struct loss_list {
  uint32_t count, capacity;
  uint64_t dropped; /* excess refills charged to sites not listed */
  struct loss_site items[];
};

/* Writes a description of addr into buf. */
typedef void (*describe_fn)(uint64_t addr, char *buf, size_t size, void *ctx);

/* Acts on the verdict of the return the model just made (p->verdict):
 * charges an excess refill to the thread's last loss in list, or takes the
 * thread's last charge back. The caller holds whatever guards list. */
void profile_settle(struct profile *p, struct loss_list *list,
                    struct site_index *index, describe_fn describe, void *ctx);

#endif /* RSB_CHECK_PROFILE_H */
