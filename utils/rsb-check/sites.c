/*===- sites.c - Deduplicated lists of code sites ------------------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The underflow list (model.c) and the refill profile's loss list
 * (profile.c) count events per code site: one entry per site, found again
 * through a hash index on every event. The lists have a fixed capacity and
 * may live in a file mapped by several process images (record.c), so the
 * index is private to each image and rebuilt from the list when it is
 * missing or too full.
 *
 *===----------------------------------------------------------------------===*/

#include "sites.h"

#include "alloc.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t hash, size_t num_slots) {
  return (size_t)(hash * 0x9e3779b97f4a7c15u) & (num_slots - 1);
}

static void *entry_at(void *entries, const struct site_shape *shape,
                      uint32_t i) {
  return (char *)entries + (size_t)i * shape->entry_size;
}

/* Grows the index to keep it at most half full, and fills it from the
 * list (which another process image may have started: see record.c). */
static void index_rebuild(struct site_index *index,
                          const struct site_shape *shape, void *entries,
                          uint32_t count, size_t num_slots) {
  free(index->slots);
  index->slots = xcalloc(num_slots, sizeof *index->slots);
  index->num_slots = num_slots;
  for (uint32_t i = 0; i < count; i++) {
    size_t h = slot_of(shape->hash(entry_at(entries, shape, i)), num_slots);
    while (index->slots[h])
      h = (h + 1) & (num_slots - 1);
    index->slots[h] = i + 1;
  }
}

void *site_entry(struct site_index *index, const struct site_shape *shape,
                 void *entries, uint32_t *count, uint32_t capacity,
                 const void *key, bool *added) {
  *added = false;
  if (index->num_slots < 2 * (size_t)*count + 2)
    index_rebuild(index, shape, entries, *count,
                  index->num_slots ? 4 * index->num_slots : 4 * 64);
  size_t mask = index->num_slots - 1;
  size_t h = slot_of(shape->hash(key), index->num_slots);
  for (; index->slots[h]; h = (h + 1) & mask) {
    void *e = entry_at(entries, shape, index->slots[h] - 1);
    if (shape->same_key(e, key))
      return e;
  }
  if (*count == capacity)
    return NULL;
  void *e = entry_at(entries, shape, *count);
  memcpy(e, key, shape->entry_size);
  index->slots[h] = ++*count;
  *added = true;
  return e;
}

void site_index_free(struct site_index *index) {
  free(index->slots);
  index->slots = NULL;
  index->num_slots = 0;
}
