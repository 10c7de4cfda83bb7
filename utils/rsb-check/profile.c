/*===- profile.c - The refill profile: where credit was lost -------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check --refill-profile: which credit losses made the program refill
 * where the exact counter (model.c) did not, ranked by the refills they
 * cost. The runtime's counter may under-count, never over-count; each
 * under-count is credit the program loses and the exact counter keeps,
 * and it shows later as a refill the exact counter would not make. Three
 * things lose credit (docs/design.md):
 *
 *  - a reset (`call __rsb_reset_depth` after uncounted calls, at landing
 *    pads, in link-time fallbacks) and a cap (`and` of a C library
 *    function's mask after its call), and any other store that lowers the
 *    counter (the signal wrapper's reset);
 *  - an uncounted entry: a function entered without its accounting entry
 *    (a comparator that qsort calls, main, a thread's start routine), whose
 *    checked return then spends credit that no call gave.
 *
 * To see them, each thread keeps a shadow of the program's counter, set
 * from every write that rsb-stuff's code (instrumented functions and the
 * runtime) makes to it: the engines hand over each shift (which needs no
 * value: `sar $5` and `shl $5` are the same arithmetic wherever they run)
 * and each other write with its address and value (the counter's address
 * is learnt from its first cap, reset or refill; a byte store merges into
 * its byte). And a shadow call stack of
 * frames {return address, counted}: a call pushes one, an accounting
 * entry's `sar` right after it marks it counted (a call site's `sar`, of
 * counted indirect and table calls, marks the next call's), a return pops
 * the frame it returns to and the frames above it that were abandoned
 * (longjmp, exceptions; a refill's calls push none). A return check in a
 * frame that is not counted is an uncounted entry.
 *
 * A write is a loss when it leaves the program's credit lower than before
 * and lower than the exact counter's (a cap that leaves more credit than
 * the exact counter has costs nothing). The thread remembers its last loss.
 *
 * The return that ends a program's refill judges it: if the exact counter
 * refills at that return too, it was due. If not, it is an excess refill,
 * charged to the last loss, unless the exact counter's previous refill was
 * its own (then the program only refilled later than it, not more often);
 * and when the exact counter's next refill is its own, that charge is
 * taken back (the program only refilled earlier). So a loss that only moves
 * a refill by a few returns costs nothing, and the charges add up to the
 * refills the program made beyond the exact counter's.
 *
 *===----------------------------------------------------------------------===*/

#include "profile.h"

#include "alloc.h"
#include "model.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread whose shadow call stack grows beyond this (a recursion that
 * never returns, a stack switcher) forgets its oldest half. */
#define MAX_FRAMES ((size_t)1 << 20)
/* p->charged of a charge that found the loss list full. */
#define NOT_LISTED UINT32_MAX

/* The register llvm-pass/RSBStuffCaps.cpp loads a cap's mask into. */
#define CAP_REGISTER 10

enum counter_write counter_write_of(const struct insn *insn,
                                    enum code_role role) {
  if (insn->kind != INSN_FS_WRITE || role == CODE_OTHER)
    return WRITE_NONE;
  bool counter_shift = insn->size == 8 && insn->count == RSB_DEPTH_SHIFT;
  switch (insn->op) {
  case FS_SAR:
    if (!counter_shift)
      break;
    if (role == CODE_COUNT_CALL)
      return WRITE_CALLER_SAR;
    return role == CODE_ENTRY || role == CODE_ICALL ? WRITE_ENTRY_SAR
                                                    : WRITE_CALL_SAR;
  case FS_SHL:
    if (counter_shift)
      return role == CODE_TAIL_ACCOUNT ? WRITE_TAIL_CHECK : WRITE_CHECK;
    break;
  case FS_AND:
    if (insn->size == 8 && insn->source == CAP_REGISTER)
      return WRITE_CAP;
    break;
  case FS_MOV:
    if (role == CODE_RESET || role == CODE_ICALL)
      return WRITE_RESET;
    if (role == CODE_REFILL || role == CODE_TAIL_ACCOUNT)
      return WRITE_CREDIT;
    break;
  }
  return WRITE_STORE;
}

/* ---- Threads ------------------------------------------------------------ */

struct profile *profile_new(void) {
  struct profile *p = xcalloc(1, sizeof *p);
  p->counter = RSB_DEPTH_INIT;
  return p;
}

void profile_free(struct profile *p) {
  if (p)
    free(p->frames);
  free(p);
}

struct profile *profile_copy(const struct profile *src) {
  struct profile *p = xcalloc(1, sizeof *p);
  *p = *src;
  p->frames = xcalloc(src->capacity ? src->capacity : 1, sizeof *p->frames);
  memcpy(p->frames, src->frames, src->depth * sizeof *p->frames);
  profile_forget_charges(p);
  return p;
}

void profile_forget_charges(struct profile *p) {
  if (p->unpaired == UNPAIRED_EXCESS)
    p->unpaired = UNPAIRED_NONE;
}

/* ---- Calls and returns -------------------------------------------------- */

static void push_frame(struct profile *p, struct shadow_frame f) {
  if (p->depth == MAX_FRAMES) {
    p->depth = MAX_FRAMES / 2;
    memmove(p->frames, p->frames + MAX_FRAMES / 2,
            p->depth * sizeof *p->frames);
  }
  if (p->depth == p->capacity) {
    p->capacity = p->capacity ? 2 * p->capacity : 256;
    p->frames = xrealloc(p->frames, p->capacity * sizeof *p->frames);
  }
  p->frames[p->depth++] = f;
}

void profile_call(struct profile *p, uint64_t call_addr, uint64_t ret_addr,
                  bool refill_call, bool began_refill) {
  p->refill_begun |= began_refill;
  if (refill_call)
    return; /* never returned to */
  push_frame(p, (struct shadow_frame){ret_addr, call_addr, p->count_next_call});
  p->count_next_call = false;
  p->after_call = true;
}

/* Pops the frame the return goes back to and those above it. A return to
 * no frame's address pops nothing (a signal handler's return to its
 * restorer, a `push; ret`), unless it comes right after a call: then it
 * drops that call's frame, as a retpoline's `call 1f; mov %r11, (%rsp);
 * ret` does. */
static void pop_frames(struct profile *p, uint64_t target) {
  for (size_t i = p->depth; i > 0; i--) {
    if (p->frames[i - 1].ret_addr == target) {
      p->depth = i - 1;
      return;
    }
  }
  if (p->after_call && p->depth)
    p->depth--;
}

/* Pairs the program's refills with the exact counter's (see the top). */
static void judge(struct profile *p, bool ideal) {
  if (p->refill_begun) {
    p->refill_begun = false;
    if (ideal || p->unpaired == UNPAIRED_IDEAL) {
      p->unpaired = UNPAIRED_NONE;
    } else {
      p->verdict = VERDICT_EXCESS;
      p->unpaired = UNPAIRED_EXCESS;
    }
  } else if (ideal) {
    if (p->unpaired == UNPAIRED_EXCESS) {
      p->verdict = VERDICT_TAKE_BACK;
      p->unpaired = UNPAIRED_NONE;
    } else {
      p->unpaired = UNPAIRED_IDEAL;
    }
  }
}

void profile_ret(struct profile *p, uint64_t target, bool ideal) {
  pop_frames(p, target);
  p->after_call = false;
  judge(p, ideal);
}

/* ---- Writes to the counter ---------------------------------------------- */

/* The returns a counter value allows before the one that refills. */
static int credit_of(uint64_t counter) {
  int ones = ~counter ? __builtin_clzll(~counter) : 64;
  return ones > 0 ? (ones - 1) / RSB_DEPTH_SHIFT : 0;
}

/* counter with the bytes of a write of size bytes of value at addr that
 * fall on the counter (at base) replaced. */
static uint64_t merge_write(uint64_t counter, uint64_t base, uint64_t addr,
                            unsigned size, uint64_t value) {
  for (unsigned i = 0; i < size && i < 8; i++) {
    uint64_t byte = addr + i - base;
    if (addr + i < base || byte >= 8)
      continue;
    counter &= ~((uint64_t)0xff << 8 * byte);
    counter |= (value >> 8 * i & 0xff) << 8 * byte;
  }
  return counter;
}

static void note_loss(struct profile *p, enum loss_kind kind, uint64_t site,
                      uint64_t check) {
  p->last_loss = (struct loss){kind, site, check};
}

/* A return check whose frame was not counted spends credit no call gave:
 * a loss if the program is left with less than the exact counter will
 * have once the frame's return has shifted it. */
static void check_frame(struct profile *p, uint64_t exact, size_t below,
                        uint64_t insn_addr) {
  const struct shadow_frame *f =
      p->depth > below ? &p->frames[p->depth - 1 - below] : NULL;
  if (f && f->counted)
    return;
  uint64_t after = exact << RSB_DEPTH_SHIFT;
  if (credit_of(p->counter) < credit_of(after ? after : RSB_DEPTH_FULL))
    note_loss(p, LOSS_UNCOUNTED, f ? f->call_addr : 0, insn_addr);
}

void profile_shift(struct profile *p, uint64_t exact, enum counter_write w,
                   uint64_t insn_addr) {
  switch (w) {
  case WRITE_ENTRY_SAR:
    p->counter = (uint64_t)((int64_t)p->counter >> RSB_DEPTH_SHIFT);
    if (p->depth)
      p->frames[p->depth - 1].counted = true;
    break;
  case WRITE_CALLER_SAR:
    p->counter = (uint64_t)((int64_t)p->counter >> RSB_DEPTH_SHIFT);
    if (p->depth > 1)
      p->frames[p->depth - 2].counted = true;
    break;
  case WRITE_CALL_SAR:
    p->counter = (uint64_t)((int64_t)p->counter >> RSB_DEPTH_SHIFT);
    p->count_next_call = true;
    break;
  case WRITE_CHECK:
  case WRITE_TAIL_CHECK: /* of the frame below __rsb_tail_account's own */
    p->counter <<= RSB_DEPTH_SHIFT;
    check_frame(p, exact, w == WRITE_TAIL_CHECK, insn_addr);
    break;
  default: /* not a shift */
    break;
  }
}

void profile_store(struct profile *p, uint64_t exact, enum counter_write w,
                   uint64_t insn_addr, uint64_t addr, unsigned size,
                   uint64_t value) {
  if (!p->counter_addr && w != WRITE_STORE && size == 8)
    p->counter_addr = addr;
  if (!p->counter_addr || addr >= p->counter_addr + 8 ||
      addr + size <= p->counter_addr)
    return; /* another thread-local word */
  uint64_t old = p->counter;
  p->counter = merge_write(old, p->counter_addr, addr, size, value);
  bool loss = credit_of(p->counter) < credit_of(old) &&
              credit_of(p->counter) < credit_of(exact);
  if (loss && w == WRITE_RESET) /* at the call of __rsb_reset_depth */
    note_loss(p, LOSS_RESET,
              p->depth ? p->frames[p->depth - 1].call_addr : insn_addr, 0);
  else if (loss)
    note_loss(p, w == WRITE_CAP ? LOSS_CAP : LOSS_STORE, insn_addr, 0);
}

/* ---- The loss list ------------------------------------------------------ */

static uint64_t loss_hash(const void *entry) {
  const struct loss *l = &((const struct loss_site *)entry)->loss;
  return l->site ^ l->check * 0xff51afd7ed558ccdu ^ l->kind;
}

static bool loss_same(const void *a, const void *b) {
  const struct loss *x = &((const struct loss_site *)a)->loss,
                    *y = &((const struct loss_site *)b)->loss;
  return x->kind == y->kind && x->site == y->site && x->check == y->check;
}

static const struct site_shape loss_shape = {sizeof(struct loss_site),
                                             loss_hash, loss_same};

static void describe_loss(struct loss_site *s, describe_fn describe,
                          void *ctx) {
  char site[LOSS_WHERE_SIZE / 2] = "", check[LOSS_WHERE_SIZE / 2] = "";
  const struct loss *l = &s->loss;
  if (l->site)
    describe(l->site, site, sizeof site, ctx);
  if (l->check)
    describe(l->check, check, sizeof check, ctx);
  switch ((enum loss_kind)l->kind) {
  case LOSS_NONE:
    snprintf(s->where, sizeof s->where, "no credit loss seen before them");
    break;
  case LOSS_RESET:
    snprintf(s->where, sizeof s->where, "reset at %s", site);
    break;
  case LOSS_CAP:
    snprintf(s->where, sizeof s->where, "cap at %s", site);
    break;
  case LOSS_UNCOUNTED:
    snprintf(s->where, sizeof s->where, "uncounted entry: %s called at %s",
             check, l->site ? site : "no call");
    break;
  case LOSS_STORE:
    snprintf(s->where, sizeof s->where, "store at %s", site);
    break;
  }
}

void profile_settle(struct profile *p, struct loss_list *list,
                    struct site_index *index, describe_fn describe, void *ctx) {
  if (p->verdict == VERDICT_EXCESS) {
    struct loss_site key = {.loss = p->last_loss};
    bool added;
    struct loss_site *s =
        site_entry(index, &loss_shape, list->items, &list->count,
                   list->capacity, &key, &added);
    if (s && added)
      describe_loss(s, describe, ctx);
    if (s)
      s->count++;
    else
      list->dropped++;
    p->charged = s ? (uint32_t)(s - list->items) : NOT_LISTED;
  } else if (p->verdict == VERDICT_TAKE_BACK) {
    if (p->charged == NOT_LISTED)
      list->dropped--;
    else
      list->items[p->charged].count--;
  }
  p->verdict = VERDICT_NONE;
}
