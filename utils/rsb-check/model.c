/*===- model.c - The RSB model both engines drive ------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * One implementation of what a call and a return do to a Skylake-era Return
 * Stack Buffer, shared by the ptrace engine (ptrace.c, which single-steps
 * the program) and the QEMU engine (plugin.c, a TCG plugin), so that the two
 * can only differ in which instructions they see execute, never in what
 * they make of them (test/checker/engines-agree.test compares them).
 *
 * A call pushes its return address; a return pops the newest entry and
 * compares it with where the return went. A refill is the runtime's 16
 * calls in a row inside its refill thunks: its first call is counted as the
 * refill, with the model's occupancy at that moment (the margin the
 * runtime's credit leaves, as measured rather than as designed).
 *
 * Beside the RSB, each thread has an exact counter: the runtime's counter
 * and credit rules (a call shifts it right arithmetically by 5, a return
 * left by 5, a return that leaves zero refills and stores all ones) applied
 * to every call and return the thread executes, the C library's and all
 * uninstrumented code's included, but not to a refill's own calls nor to
 * the trap entries the reset and the signal wrapper push (none returns). Its
 * refills (ideal-refills=) are the ones a counter that missed nothing would
 * need: on a plain build, the refills call depth tracking cannot avoid; on
 * an instrumented one, the yardstick for its refills=. With
 * --refill-profile the calls and returns also drive the thread's profile
 * (profile.c), which finds the credit losses behind the other refills.
 *
 *===----------------------------------------------------------------------===*/

#include "model.h"

#include "alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- The ring ------------------------------------------------------------ */

static void ring_push(struct rsb_ring *r, uint64_t ret_addr) {
  r->slot[r->top] = ret_addr;
  r->top = (r->top + 1) % r->size;
  if (r->count < r->size)
    r->count++;
}

static bool ring_pop(struct rsb_ring *r, uint64_t *prediction) {
  if (r->count == 0)
    return false;
  r->top = (r->top + r->size - 1) % r->size;
  r->count--;
  *prediction = r->slot[r->top];
  return true;
}

void model_thread_init(struct model_thread *t, unsigned rsb_size,
                       bool profile) {
  t->rsb.slot = xcalloc(rsb_size, sizeof *t->rsb.slot);
  t->rsb.size = rsb_size;
  t->rsb.top = t->rsb.count = 0;
  t->in_refill = false;
  t->exact = RSB_DEPTH_INIT;
  t->profile = profile ? profile_new() : NULL;
}

void model_thread_free(struct model_thread *t) {
  free(t->rsb.slot);
  t->rsb.slot = NULL;
  profile_free(t->profile);
  t->profile = NULL;
}

void model_thread_copy(struct model_thread *dst,
                       const struct model_thread *src) {
  memcpy(dst->rsb.slot, src->rsb.slot, src->rsb.size * sizeof *src->rsb.slot);
  dst->rsb.top = src->rsb.top;
  dst->rsb.count = src->rsb.count;
  dst->in_refill = src->in_refill;
  dst->exact = src->exact;
  if (src->profile) {
    profile_free(dst->profile);
    dst->profile = profile_copy(src->profile);
  }
}

void model_thread_clear(struct model_thread *t) {
  t->rsb.top = t->rsb.count = 0;
  t->in_refill = false;
  t->exact = RSB_DEPTH_INIT;
  if (t->profile) {
    profile_free(t->profile);
    t->profile = profile_new();
  }
}

/* ---- Calls and returns --------------------------------------------------- */

bool model_call(struct model_thread *t, struct counts *c, uint64_t call_addr,
                uint64_t ret_addr, bool refill_call, bool trap_call) {
  /* The refill is 16 calls in a row, each to the next: count its first. */
  bool starts_refill = refill_call && !t->in_refill;
  t->in_refill = refill_call;
  c->calls++;
  if (!refill_call && !trap_call)
    t->exact = (uint64_t)((int64_t)t->exact >> RSB_DEPTH_SHIFT);
  if (starts_refill) {
    t->refill_occupancy = t->rsb.count;
    if (c->refills == 0 || t->rsb.count < c->min_rsb_at_refill)
      c->min_rsb_at_refill = t->rsb.count;
    c->refills++;
  }
  ring_push(&t->rsb, ret_addr);
  if (t->profile)
    profile_call(t->profile, call_addr, ret_addr, refill_call || trap_call,
                 starts_refill);
  return starts_refill;
}

enum ret_class model_ret(struct model_thread *t, struct counts *c,
                         uint64_t target, is_trap_fn is_trap, void *ctx) {
  uint64_t prediction;
  t->in_refill = false;
  c->returns++;
  t->exact <<= RSB_DEPTH_SHIFT;
  bool ideal_refill = t->exact == 0;
  if (ideal_refill) {
    c->ideal_refills++;
    t->exact = RSB_DEPTH_FULL;
  }
  if (t->profile)
    profile_ret(t->profile, target, ideal_refill);
  if (!ring_pop(&t->rsb, &prediction)) {
    c->underflows++;
    return RET_UNDERFLOW;
  }
  if (prediction == target) {
    c->correct++;
    return RET_CORRECT;
  }
  if (is_trap(prediction, ctx)) {
    c->trap++;
    return RET_TRAP;
  }
  c->mispredicted++;
  return RET_MISPREDICTED;
}

/* ---- Underflow list ------------------------------------------------------ */

static uint64_t underflow_hash(const void *entry) {
  return ((const struct underflow *)entry)->addr;
}

static bool underflow_same(const void *a, const void *b) {
  return ((const struct underflow *)a)->addr ==
         ((const struct underflow *)b)->addr;
}

static const struct site_shape underflow_shape = {
    sizeof(struct underflow), underflow_hash, underflow_same};

struct underflow *underflow_entry(struct underflow_list *list,
                                  struct site_index *index, uint64_t addr,
                                  bool *added) {
  struct underflow key = {.addr = addr};
  struct underflow *u = site_entry(index, &underflow_shape, list->items,
                                   &list->count, list->capacity, &key, added);
  if (!u)
    list->dropped++;
  return u;
}
