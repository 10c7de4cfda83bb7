/*===- sites.h - Deduplicated lists of code sites ------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_SITES_H
#define RSB_CHECK_SITES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The private hash index that finds the entries of a fixed-capacity list,
 * which may live in memory shared with another process (the QEMU engine
 * keeps its lists in the process's record file). */
struct site_index {
  uint32_t *slots; /* open addressing: entry index + 1, 0 = empty */
  size_t num_slots;
};

/* What the index needs to know of a list's entries. */
struct site_shape {
  size_t entry_size;
  uint64_t (*hash)(const void *entry); /* of its key */
  bool (*same_key)(const void *a, const void *b);
};

/* The entry of entries[0..*count) with the key of `key` (an entry whose key
 * fields are set), added as a copy of key if it is new (*added set, the
 * caller fills in the rest); NULL when the list is full. */
void *site_entry(struct site_index *index, const struct site_shape *shape,
                 void *entries, uint32_t *count, uint32_t capacity,
                 const void *key, bool *added);
void site_index_free(struct site_index *index);

#endif /* RSB_CHECK_SITES_H */
