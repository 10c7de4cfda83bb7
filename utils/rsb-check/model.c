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
 * uninstrumented code's included, but not to a refill's own calls. Its
 * refills (ideal-refills=) are the ones a counter that missed nothing would
 * need: on a plain build, the refills call depth tracking cannot avoid; on
 * an instrumented one, the yardstick for its refills=.
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

void model_thread_init(struct model_thread *t, unsigned rsb_size) {
  t->rsb.slot = xcalloc(rsb_size, sizeof *t->rsb.slot);
  t->rsb.size = rsb_size;
  t->rsb.top = t->rsb.count = 0;
  t->in_refill = false;
  t->exact = RSB_DEPTH_INIT;
}

void model_thread_free(struct model_thread *t) {
  free(t->rsb.slot);
  t->rsb.slot = NULL;
}

void model_thread_copy(struct model_thread *dst,
                       const struct model_thread *src) {
  memcpy(dst->rsb.slot, src->rsb.slot, src->rsb.size * sizeof *src->rsb.slot);
  dst->rsb.top = src->rsb.top;
  dst->rsb.count = src->rsb.count;
  dst->in_refill = src->in_refill;
  dst->exact = src->exact;
}

void model_thread_clear(struct model_thread *t) {
  t->rsb.top = t->rsb.count = 0;
  t->in_refill = false;
  t->exact = RSB_DEPTH_INIT;
}

/* ---- Calls and returns --------------------------------------------------- */

bool model_call(struct model_thread *t, struct counts *c, uint64_t ret_addr,
                bool refill_call) {
  /* The refill is 16 calls in a row, each to the next: count its first. */
  bool starts_refill = refill_call && !t->in_refill;
  t->in_refill = refill_call;
  c->calls++;
  if (!refill_call)
    t->exact = (uint64_t)((int64_t)t->exact >> RSB_DEPTH_SHIFT);
  if (starts_refill) {
    t->refill_occupancy = t->rsb.count;
    if (c->refills == 0 || t->rsb.count < c->min_rsb_at_refill)
      c->min_rsb_at_refill = t->rsb.count;
    c->refills++;
  }
  ring_push(&t->rsb, ret_addr);
  return starts_refill;
}

enum ret_class model_ret(struct model_thread *t, struct counts *c,
                         uint64_t target, is_trap_fn is_trap, void *ctx) {
  uint64_t prediction;
  t->in_refill = false;
  c->returns++;
  t->exact <<= RSB_DEPTH_SHIFT;
  if (t->exact == 0) {
    c->ideal_refills++;
    t->exact = RSB_DEPTH_FULL;
  }
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

static size_t slot_of(uint64_t addr, size_t num_slots) {
  return (size_t)(addr * 0x9e3779b97f4a7c15u) & (num_slots - 1);
}

/* Grows the index to keep it at most half full, and fills it from the list
 * (which another process image may have started: see record.c). */
static void index_rebuild(const struct underflow_list *list,
                          struct underflow_index *index, size_t num_slots) {
  free(index->slots);
  index->slots = xcalloc(num_slots, sizeof *index->slots);
  index->num_slots = num_slots;
  for (uint32_t i = 0; i < list->count; i++) {
    size_t h = slot_of(list->items[i].addr, num_slots);
    while (index->slots[h])
      h = (h + 1) & (num_slots - 1);
    index->slots[h] = i + 1;
  }
}

struct underflow *underflow_entry(struct underflow_list *list,
                                  struct underflow_index *index, uint64_t addr,
                                  bool *added) {
  *added = false;
  if (index->num_slots < 2 * (size_t)list->count + 2)
    index_rebuild(list, index,
                  index->num_slots ? 4 * index->num_slots : 4 * 64);
  size_t mask = index->num_slots - 1;
  size_t h = slot_of(addr, index->num_slots);
  for (; index->slots[h]; h = (h + 1) & mask)
    if (list->items[index->slots[h] - 1].addr == addr)
      return &list->items[index->slots[h] - 1];
  if (list->count == list->capacity) {
    list->dropped++;
    return NULL;
  }
  struct underflow *u = &list->items[list->count];
  memset(u, 0, sizeof *u);
  u->addr = addr;
  index->slots[h] = ++list->count;
  *added = true;
  return u;
}

void underflow_index_free(struct underflow_index *index) {
  free(index->slots);
  index->slots = NULL;
  index->num_slots = 0;
}
