/*===- model.h - The RSB model both engines drive ------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_MODEL_H
#define RSB_CHECK_MODEL_H

#include "counts.h"
#include "profile.h"
#include "sites.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The runtime's counter (runtime/rsb_thunks.S): shifted by this many bits
 * per call level, starting with no credit, full credit after a refill. */
#define RSB_DEPTH_SHIFT 5
#define RSB_DEPTH_INIT ((uint64_t)1 << 63)
#define RSB_DEPTH_FULL UINT64_MAX

/* A model Return Stack Buffer: a ring of `size` entries, the oldest
 * overwritten when full. */
struct rsb_ring {
  uint64_t *slot;
  unsigned size, top, count;
};

/* What one thread's calls and returns have left in the model. */
struct model_thread {
  struct rsb_ring rsb;
  /* The last call or return was one of a refill's calls: the next refill
   * call continues that refill rather than starting one. */
  bool in_refill;
  /* Entries the model held when the last refill started. */
  unsigned refill_occupancy;
  /* The exact counter: the runtime's counter as if every call and return
   * of the thread were counted (the refills' own calls excepted). */
  uint64_t exact;
  struct profile *profile; /* --refill-profile, else NULL */
};

/* How the model classified an executed return. */
enum ret_class {
  RET_CORRECT,      /* predicted the address the ret went to */
  RET_TRAP,         /* predicted an int3 a refill planted (harmless) */
  RET_MISPREDICTED, /* predicted some other address */
  RET_UNDERFLOW,    /* the model was empty: predicted from the BTB */
};

/* Reads whether the byte at addr is an int3 (0xcc); false if unreadable. */
typedef bool (*is_trap_fn)(uint64_t addr, void *ctx);

/* profile: keep the thread's refill profile (profile.c) too. */
void model_thread_init(struct model_thread *t, unsigned rsb_size, bool profile);
void model_thread_free(struct model_thread *t);
/* A forked child's thread starts from its parent's model. */
void model_thread_copy(struct model_thread *dst,
                       const struct model_thread *src);
/* execve: the new program starts with an empty model. */
void model_thread_clear(struct model_thread *t);

/* An executed call at call_addr that left ret_addr on the stack;
 * refill_call says that the call lies in one of the runtime's refill
 * thunks, trap_call that it pushes an entry at a trap (the reset, the
 * signal wrapper's fill: as_in_trap_push).
 * Counts it in *c and returns true when it starts a refill (the model's
 * occupancy at that moment is then in t->refill_occupancy and
 * c->min_rsb_at_refill). Every other call is counted on the exact
 * counter: neither kind returns. */
bool model_call(struct model_thread *t, struct counts *c, uint64_t call_addr,
                uint64_t ret_addr, bool refill_call, bool trap_call);

/* An executed return that went to target: pops the model's prediction,
 * classifies and counts it in *c. is_trap reads memory at a mispredicted
 * prediction. Underflows are counted in c->underflows only: the caller
 * decides whether they are foreign and records them. The return shifts the
 * exact counter, which refills (c->ideal_refills) when that leaves zero. */
enum ret_class model_ret(struct model_thread *t, struct counts *c,
                         uint64_t target, is_trap_fn is_trap, void *ctx);

/* ---- Underflowing returns, deduplicated by the ret's address ----------- */

#define UNDERFLOW_WHERE_SIZE 240
/* Places of underflowing returns listed per process; more are counted in
 * underflow_list.dropped. */
#define UNDERFLOW_LIST_CAPACITY 4096

struct underflow {
  uint64_t addr, target, count;
  uint32_t foreign; /* the ret is outside the code rsb-stuff compiled */
  char where[UNDERFLOW_WHERE_SIZE]; /* symbolized when first seen */
};

/* A fixed-capacity list that may live in memory shared with another
 * process (the QEMU engine keeps it in the process's record file). */
struct underflow_list {
  uint32_t count, capacity;
  uint64_t dropped; /* underflows at rets that found the list full */
  struct underflow items[];
};

/* The entry of the ret at addr, added (count 0, where empty) if it is new;
 * NULL when the list is full (counted in list->dropped). *added tells a new
 * entry, which the caller symbolizes. */
struct underflow *underflow_entry(struct underflow_list *list,
                                  struct site_index *index, uint64_t addr,
                                  bool *added);

#endif /* RSB_CHECK_MODEL_H */
