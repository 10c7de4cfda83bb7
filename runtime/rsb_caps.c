//===- rsb_caps.c - Start-up checks behind the credit caps ----------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// After a call into the C library, instrumented code caps the credit with
// the mask of that function's record in section rsb_caps (RSBStuffCaps.cpp
// in the plugin): the reset until this file's constructor has checked that
// the depth the compiler took from its table holds in this process, then
// the capped mask the table allows. It holds when
//   - this module binds its symbols at load time (-z now, which rsb-ld
//     passes, or LD_BIND_NOW; and no LD_AUDIT): a lazy first call through
//     the PLT runs the dynamic linker's resolver, far deeper than any table
//     entry;
//   - the function resolved into a library of the table's file name and GNU
//     build-id: not another build of the C library, not an interposed
//     definition (LD_PRELOAD, a static allocator, a non-PIE executable's
//     canonical PLT entry, a static link);
//   - for a depth that holds once a flag of the library is set (malloc,
//     whose first call initialises the allocator through code the table
//     cannot bound; docs/libc-depth.md, "Once-flags"), that byte is set.
//     The check first runs malloc once, which sets glibc's allocator flag
//     (a flag that only later code sets, like exit's, is found 0: the
//     reset stays); the tool proved that nothing clears a flag again.
// Any doubt leaves the reset in place: slower, never unsafe. Every module
// (the executable, each instrumented shared object) links its own copy and
// checks its own records. With the statistics runtime the outcome is added
// to the process's report (rsb_runtime.c), printed with RSB_STATS=1.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE // dl_iterate_phdr
#include "rsb_stuff.h"

#include <elf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

// One record per C library function a module calls; the plugin's layout.
struct rsb_cap {
  uint64_t mask;        // What the code after the call ANDs into the counter.
  const void *function; // Where the call's symbol resolved (relocated).
  const char *library;  // "<file name> <build-id in hex>" of the table.
  uint64_t capped;      // The mask the table's depth allows.
  void (*check)(void);  // This function: links it in with the records.
};

extern struct rsb_cap __start_rsb_caps[]
    __attribute__((weak, visibility("hidden")));
extern struct rsb_cap __stop_rsb_caps[]
    __attribute__((weak, visibility("hidden")));
// This module's dynamic section; absent from a static executable.
extern ElfW(Dyn) _DYNAMIC[] __attribute__((weak, visibility("hidden")));

#ifdef RSB_STATS
extern struct rsb_cap_report __rsb_cap_report __attribute__((weak));
#endif

enum verdict { VOUCHED, LAZY, OTHER_BUILD, ELSEWHERE, UNSET };

static int nonempty_env(const char *name) {
  const char *value = getenv(name);
  return value && *value;
}

// Whether this module's PLT slots are all bound before its code runs.
static int binds_now(void) {
  if (nonempty_env("LD_AUDIT"))
    return 0; // An auditor's la_pltenter runs on PLT calls.
  if (!_DYNAMIC)
    return 1; // No PLT bound by the dynamic linker.
  for (const ElfW(Dyn) *d = _DYNAMIC; d->d_tag != DT_NULL; ++d)
    if (d->d_tag == DT_BIND_NOW ||
        (d->d_tag == DT_FLAGS && (d->d_un.d_val & DF_BIND_NOW)) ||
        (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_NOW)))
      return 1;
  return nonempty_env("LD_BIND_NOW");
}

struct object {
  uintptr_t address;       // In: an address.
  uintptr_t base;          // Out: the object holding it: its load bias,
  const ElfW(Phdr) * phdr; // program headers (mapped with it),
  size_t phnum;
  const char *name;  // file,
  const uint8_t *id; // and GNU build-id, if it has one.
  size_t id_size;
};

static const uint8_t *find_build_id(const struct dl_phdr_info *info,
                                    const ElfW(Phdr) * note, size_t *size) {
  const char *p = (const char *)(info->dlpi_addr + note->p_vaddr);
  const char *end = p + note->p_memsz;
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
    const char *name = p + sizeof(*n);
    const char *desc = name + ((n->n_namesz + 3) & ~3u);
    if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
        memcmp(name, "GNU", 4) == 0) {
      *size = n->n_descsz;
      return (const uint8_t *)desc;
    }
    p = desc + ((n->n_descsz + 3) & ~3u);
  }
  return NULL;
}

static int holds(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  struct object *o = data;
  int inside = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t start = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && o->address - start < ph->p_memsz)
      inside = 1;
  }
  if (!inside)
    return 0;
  o->base = info->dlpi_addr;
  o->phdr = info->dlpi_phdr;
  o->phnum = info->dlpi_phnum;
  o->name = info->dlpi_name ? info->dlpi_name : "";
  for (int i = 0; i < info->dlpi_phnum && !o->id; ++i)
    if (info->dlpi_phdr[i].p_type == PT_NOTE)
      o->id = find_build_id(info, &info->dlpi_phdr[i], &o->id_size);
  return 1;
}

static int hex_digit(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                : -1;
}

// Whether hex (up to a space or the end) spells the bytes id[0..size).
static int same_id(const char *hex, const uint8_t *id, size_t size) {
  if (!id || strcspn(hex, " ") != 2 * size)
    return 0;
  for (size_t i = 0; i < size; ++i)
    if (hex_digit(hex[2 * i]) * 16 + hex_digit(hex[2 * i + 1]) != id[i])
      return 0;
  return 1;
}

// Whether the object maps the byte at vaddr.
static int in_segment(const struct object *o, uintptr_t vaddr) {
  for (size_t i = 0; i < o->phnum; ++i) {
    const ElfW(Phdr) *ph = &o->phdr[i];
    if (ph->p_type == PT_LOAD && vaddr - ph->p_vaddr < ph->p_memsz)
      return 1;
  }
  return 0;
}

// The once-flag after the build-id ("libc.so.6 <id> 1da488"), or 0.
static uintptr_t once_flag(const char *library) {
  const char *id = strchr(library, ' ');
  const char *flag = id ? strchr(id + 1, ' ') : NULL;
  if (!flag)
    return 0;
  uintptr_t value = 0;
  for (const char *p = flag + 1; *p; ++p) {
    int digit = hex_digit(*p);
    if (digit < 0 || value >> 60)
      return UINTPTR_MAX; // Unreadable: no address vouches for it.
    value = value * 16 + digit;
  }
  return value ? value : UINTPTR_MAX;
}

// Finds the loaded object that maps Address into O, unless O, the object of
// the previous record (most are libc's), maps it already: loaded objects
// do not overlap, so the walk would find that one again, and it stays
// loaded (this module's symbols bound to it). One walk of every object per
// record cost a program thousands of instructions at start-up.
static int find_object(uintptr_t address, struct object *o) {
  if (o->phdr && in_segment(o, address - o->base))
    return 1;
  *o = (struct object){address, 0, NULL, 0, NULL, NULL, 0};
  return dl_iterate_phdr(holds, o);
}

static enum verdict judge(const struct rsb_cap *cap, struct object *last) {
  if (!cap->function || !find_object((uintptr_t)cap->function, last))
    return ELSEWHERE;
  const struct object *o = last;
  const char *hex = strchr(cap->library, ' ');
  const char *base = strrchr(o->name, '/');
  base = base ? base + 1 : o->name;
  if (!hex || strncmp(base, cap->library, hex - cap->library) != 0 ||
      base[hex - cap->library] != '\0')
    return ELSEWHERE;
  if (!same_id(hex + 1, o->id, o->id_size))
    return OTHER_BUILD;
  uintptr_t flag = once_flag(cap->library);
  if (!flag)
    return VOUCHED;
  // The same build as the table's, so the flag is the byte the tool saw;
  // only a damaged table could point outside the library.
  if (!in_segment(o, flag) ||
      !__atomic_load_n((const uint8_t *)(o->base + flag), __ATOMIC_ACQUIRE))
    return UNSET;
  return VOUCHED;
}

// Whether some record's depth holds only once a flag is set.
static int needs_once_flags(void) {
  for (struct rsb_cap *cap = __start_rsb_caps; cap < __stop_rsb_caps; ++cap)
    if (once_flag(cap->library))
      return 1;
  return 0;
}

static void report(enum verdict v) {
#ifdef RSB_STATS
  if (!&__rsb_cap_report)
    return;
  uint64_t *counts[] = {&__rsb_cap_report.vouched, &__rsb_cap_report.lazy,
                        &__rsb_cap_report.other_build,
                        &__rsb_cap_report.elsewhere, &__rsb_cap_report.unset};
  __atomic_fetch_add(counts[v], 1, __ATOMIC_RELAXED);
#else
  (void)v;
#endif
}

// Early, so that other constructors run with the caps as well. A thread
// may already run this module's code (a dlopen from another thread): it
// sees the reset or the capped mask, both safe, never a torn word.
// Not static: every record refers to it, which pulls this member out of
// the runtime's archive wherever there are records (and only there: a
// -nostdlib program without them needs no libc functions from here).
__attribute__((constructor(101), visibility("hidden"))) void
__rsb_caps_check(void) {
  if (!__start_rsb_caps || __start_rsb_caps == __stop_rsb_caps)
    return;
  int now = binds_now();
  if (now && needs_once_flags()) {
    // glibc's allocator sets its flag on the first call; the volatile
    // pointer keeps the compiler from folding the pair away.
    void *volatile block = malloc(1);
    free(block);
  }
  struct object last = {0, 0, NULL, 0, NULL, NULL, 0};
  for (struct rsb_cap *cap = __start_rsb_caps; cap < __stop_rsb_caps; ++cap) {
    enum verdict v = now ? judge(cap, &last) : LAZY;
    if (v == VOUCHED)
      __atomic_store_n(&cap->mask, cap->capped, __ATOMIC_RELAXED);
    report(v);
  }
}
