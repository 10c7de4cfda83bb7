/*===- symbols.c - Executable mappings and ELF symbols of a tracee --------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The checker needs symbols three times: on every executed call, to tell
 * whether it is one of the runtime's refill calls (which lie inside the
 * hidden functions __rsb_return_thunk, __rsb_tail_account,
 * __rsb_tail_account_flags and __rsb_refill_return of whichever module
 * linked the runtime), for the refill profile, to tell what a write to the
 * counter means (an accounting entry's, a reset's, a tail call's), and for
 * naming the returns that underflowed and the profile's sites. All go the
 * same way: the address's executable mapping in /proc/PID/maps gives a file
 * and an offset, the file's program headers turn the offset into a
 * link-time address, and its .symtab holds the function around it (for a
 * stripped file, that of its detached debug file, found by its build-id,
 * as libc6-dbg installs the C library's; else its .dynsym).
 *
 * Calls are frequent, so lookups stay in memory: each process caches its
 * executable mappings (reread only when an address is not in the cache or a
 * syscall may have remapped code), and each ELF file is parsed once for the
 * whole run.
 *
 *===----------------------------------------------------------------------===*/

#include "symbols.h"

#include "alloc.h"

#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The runtime's functions that contain the refill's calls. */
static const char *const refill_thunk_names[] = {
    "__rsb_return_thunk",
    "__rsb_tail_account",
    "__rsb_tail_account_flags",
    "__rsb_refill_return",
};
#define NUM_THUNK_NAMES (sizeof refill_thunk_names / sizeof *refill_thunk_names)

struct vrange {
  uint64_t start, end;
};

struct func_symbol {
  uint64_t addr, size;
  const char *name;  /* points into elf_image.names */
  bool instrumented; /* rsb-stuff compiled it: it has an accounting entry */
  enum code_role role;
};

struct elf_image {
  char *path;
  unsigned long dev_major, dev_minor, inode;
  struct vrange *loads; /* PT_LOAD: file offsets [start, end) */
  uint64_t *load_vaddr; /* link-time address of each load's start */
  size_t num_loads;
  struct func_symbol *syms; /* sorted by address */
  size_t num_syms;
  char *names;
  struct vrange thunks[8]; /* link-time addresses of the refill thunks */
  size_t num_thunks;
  bool parsed; /* the file is read on first use, not when mapped */
  struct elf_image *next;
};

static struct elf_image *image_cache;

/* ---- ELF parsing -------------------------------------------------------- */

/* A mapped ELF file; every access is bounds-checked against size. */
struct elf_view {
  const uint8_t *data;
  size_t size;
};

static const void *view_at(const struct elf_view *v, uint64_t off,
                           uint64_t len) {
  if (off > v->size || len > v->size - off)
    return NULL;
  return v->data + off;
}

static void read_program_headers(struct elf_image *img,
                                 const struct elf_view *v,
                                 const Elf64_Ehdr *eh) {
  if (eh->e_phentsize != sizeof(Elf64_Phdr))
    return;
  const Elf64_Phdr *ph =
      view_at(v, eh->e_phoff, (uint64_t)eh->e_phnum * sizeof *ph);
  if (!ph)
    return;
  img->loads = xcalloc(eh->e_phnum, sizeof *img->loads);
  img->load_vaddr = xcalloc(eh->e_phnum, sizeof *img->load_vaddr);
  for (unsigned i = 0; i < eh->e_phnum; i++) {
    if (ph[i].p_type != PT_LOAD)
      continue;
    img->loads[img->num_loads] =
        (struct vrange){ph[i].p_offset, ph[i].p_offset + ph[i].p_filesz};
    img->load_vaddr[img->num_loads++] = ph[i].p_vaddr;
  }
}

static const Elf64_Shdr *find_section(const Elf64_Shdr *sh, unsigned count,
                                      uint32_t type) {
  for (unsigned i = 0; i < count; i++)
    if (sh[i].sh_type == type)
      return &sh[i];
  return NULL;
}

static bool is_refill_thunk_name(const char *name) {
  for (size_t i = 0; i < NUM_THUNK_NAMES; i++)
    if (strcmp(name, refill_thunk_names[i]) == 0)
      return true;
  return false;
}

static bool has_prefix(const char *name, const char *prefix) {
  return strncmp(name, prefix, strlen(prefix)) == 0;
}

/* The role a function has by its name alone (mark_instrumented adds the
 * functions that have an entry). */
static enum code_role role_of_name(const char *name) {
  if (has_prefix(name, "__rsb_entry."))
    return CODE_ENTRY;
  if (strcmp(name, "__rsb_reset_depth") == 0)
    return CODE_RESET;
  if (strcmp(name, "__rsb_icall_r11") == 0)
    return CODE_ICALL;
  if (strcmp(name, "__rsb_count_call") == 0)
    return CODE_COUNT_CALL;
  if (strcmp(name, "__rsb_signal_fill") == 0)
    return CODE_SIGNAL_FILL;
  if (strcmp(name, "__rsb_return_thunk") == 0 ||
      strcmp(name, "__rsb_refill_return") == 0)
    return CODE_REFILL;
  if (strcmp(name, "__rsb_tail_account") == 0 ||
      strcmp(name, "__rsb_tail_account_flags") == 0)
    return CODE_TAIL_ACCOUNT;
  if (has_prefix(name, "__rsb_") || has_prefix(name, "rsb_"))
    return CODE_INSTRUMENTED;
  return CODE_OTHER;
}

/* How good a name a symbol is for its address, among aliases: a sized one
 * over a bare label, the function's own name over rsb-stuff's tail-call
 * alias of it (__rsb_tail.f is f). */
static int symbol_rank(const struct func_symbol *s) {
  return (s->size > 0) * 2 + (strncmp(s->name, "__rsb_tail.", 11) != 0);
}

/* By address; among aliases the best name last, where image_symbol's
 * backward search meets it first. */
static int compare_symbols(const void *a, const void *b) {
  const struct func_symbol *x = a, *y = b;
  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return symbol_rank(x) - symbol_rank(y);
}

static void add_symbol(struct elf_image *img, const Elf64_Sym *s,
                       const char *name) {
  unsigned type = ELF64_ST_TYPE(s->st_info);
  if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s->st_shndx == SHN_UNDEF ||
      s->st_value == 0)
    return;
  if (is_refill_thunk_name(name) &&
      img->num_thunks < sizeof img->thunks / sizeof *img->thunks)
    img->thunks[img->num_thunks++] =
        (struct vrange){s->st_value, s->st_value + s->st_size};
  img->syms[img->num_syms++] = (struct func_symbol){
      s->st_value, s->st_size, name, false, role_of_name(name)};
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Marks the functions rsb-stuff compiled: those with an `__rsb_entry.NAME`
 * symbol. Their returns all go through the runtime's thunks or an accounted
 * exit, so an underflow there is rsb-stuff's to prevent. */
static void mark_instrumented(struct elf_image *img) {
  static const char prefix[] = "__rsb_entry.";
  const size_t len = sizeof prefix - 1;
  const char **entries = xcalloc(img->num_syms + 1, sizeof *entries);
  size_t count = 0;
  for (size_t i = 0; i < img->num_syms; i++)
    if (strncmp(img->syms[i].name, prefix, len) == 0)
      entries[count++] = img->syms[i].name + len;
  qsort(entries, count, sizeof *entries, compare_names);
  for (size_t i = 0; i < img->num_syms && count; i++) {
    const char *name = img->syms[i].name;
    img->syms[i].instrumented =
        bsearch(&name, entries, count, sizeof *entries, compare_names) != NULL;
    if (img->syms[i].instrumented && img->syms[i].role == CODE_OTHER)
      img->syms[i].role = CODE_INSTRUMENTED;
  }
  free(entries);
}

static const Elf64_Shdr *section_headers(const struct elf_view *v) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)v->data;
  if (eh->e_shentsize != sizeof(Elf64_Shdr))
    return NULL;
  return view_at(v, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr));
}

/* Collects the FUNC symbols of the file's section of the given type
 * (SHT_SYMTAB, SHT_DYNSYM); false if it has none. */
static bool read_symbol_table(struct elf_image *img, const struct elf_view *v,
                              uint32_t type) {
  const Elf64_Shdr *sh = section_headers(v);
  unsigned shnum = ((const Elf64_Ehdr *)v->data)->e_shnum;
  const Elf64_Shdr *symtab = sh ? find_section(sh, shnum, type) : NULL;
  if (!symtab || symtab->sh_link >= shnum)
    return false;
  const Elf64_Shdr *strtab = &sh[symtab->sh_link];
  const Elf64_Sym *syms = view_at(v, symtab->sh_offset, symtab->sh_size);
  const char *strs = view_at(v, strtab->sh_offset, strtab->sh_size);
  if (!syms || !strs || strtab->sh_size == 0)
    return false;
  /* A private copy of the names, NUL-terminated even if the file is not. */
  img->names = xcalloc(strtab->sh_size + 1, 1);
  memcpy(img->names, strs, strtab->sh_size);
  size_t count = symtab->sh_size / sizeof *syms;
  img->syms = xcalloc(count, sizeof *img->syms);
  for (size_t i = 0; i < count; i++)
    if (syms[i].st_name < strtab->sh_size)
      add_symbol(img, &syms[i], img->names + syms[i].st_name);
  return true;
}

/* The file's GNU build-id note: its bytes and their number; NULL if none. */
static const uint8_t *build_id(const struct elf_view *v, uint32_t *len) {
  const Elf64_Shdr *sh = section_headers(v);
  unsigned shnum = ((const Elf64_Ehdr *)v->data)->e_shnum;
  for (unsigned i = 0; sh && i < shnum; i++) {
    for (uint64_t off = 0; sh[i].sh_type == SHT_NOTE &&
                           off + sizeof(Elf64_Nhdr) <= sh[i].sh_size;) {
      const Elf64_Nhdr *n = view_at(v, sh[i].sh_offset + off, sizeof *n);
      if (!n)
        break;
      uint64_t name = off + sizeof *n, desc = name + ((n->n_namesz + 3) & ~3u);
      const char *owner = view_at(v, sh[i].sh_offset + name, 4);
      const uint8_t *id = view_at(v, sh[i].sh_offset + desc, n->n_descsz);
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && owner && id &&
          memcmp(owner, "GNU", 4) == 0) {
        *len = n->n_descsz;
        return id;
      }
      off = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return NULL;
}

/* The detached debug file of a file with a build-id (where Debian's -dbg
 * packages install it, libc6-dbg the C library's), into path; false
 * without one. */
static bool debug_file_path(const struct elf_view *v, char *path, size_t size) {
  char hex[2 * 64 + 1];
  uint32_t len;
  const uint8_t *id = build_id(v, &len);
  if (!id || len < 2 || 2 * len >= sizeof hex)
    return false;
  for (uint32_t i = 0; i < len; i++)
    snprintf(hex + 2 * i, 3, "%02x", id[i]);
  return (size_t)snprintf(path, size, "/usr/lib/debug/.build-id/%.2s/%s.debug",
                          hex, hex + 2) < size;
}

/* Maps an ELF64 file read-only into *v; false if it is not one. */
static bool map_elf(const char *path, struct elf_view *v) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return false;
  if (fstat(fd, &st) < 0 || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
    close(fd);
    return false;
  }
  void *data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (data == MAP_FAILED)
    return false;
  *v = (struct elf_view){data, (size_t)st.st_size};
  const Elf64_Ehdr *eh = data;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 &&
      eh->e_ident[EI_CLASS] == ELFCLASS64)
    return true;
  munmap(data, v->size);
  return false;
}

/* Collects the FUNC symbols of .symtab, that of the detached debug file if
 * the file is stripped, or else .dynsym. */
static void read_symbols(struct elf_image *img, const struct elf_view *v) {
  char debug_path[PATH_MAX];
  struct elf_view debug;
  bool found = read_symbol_table(img, v, SHT_SYMTAB);
  if (!found && debug_file_path(v, debug_path, sizeof debug_path) &&
      map_elf(debug_path, &debug)) {
    found = read_symbol_table(img, &debug, SHT_SYMTAB);
    munmap((void *)debug.data, debug.size);
  }
  if (!found)
    read_symbol_table(img, v, SHT_DYNSYM);
  qsort(img->syms, img->num_syms, sizeof *img->syms, compare_symbols);
  mark_instrumented(img);
}

static void parse_elf(struct elf_image *img) {
  struct elf_view v;
  if (!map_elf(img->path, &v))
    return;
  read_program_headers(img, &v, (const Elf64_Ehdr *)v.data);
  read_symbols(img, &v);
  munmap((void *)v.data, v.size);
}

/* The cached image of a file (parsed by region_vaddr on first use). */
static struct elf_image *image_get(const char *path, unsigned long major,
                                   unsigned long minor, unsigned long inode) {
  for (struct elf_image *img = image_cache; img; img = img->next)
    if (img->inode == inode && img->dev_major == major &&
        img->dev_minor == minor && strcmp(img->path, path) == 0)
      return img;
  struct elf_image *img = xcalloc(1, sizeof *img);
  img->path = xstrdup(path);
  img->dev_major = major;
  img->dev_minor = minor;
  img->inode = inode;
  img->next = image_cache;
  image_cache = img;
  return img;
}

/* The link-time address of file offset off, if a PT_LOAD maps it. */
static bool image_vaddr(const struct elf_image *img, uint64_t off,
                        uint64_t *vaddr) {
  for (size_t i = 0; i < img->num_loads; i++) {
    if (off >= img->loads[i].start && off < img->loads[i].end) {
      *vaddr = off - img->loads[i].start + img->load_vaddr[i];
      return true;
    }
  }
  return false;
}

/* The function containing vaddr, or NULL. */
static const struct func_symbol *image_symbol(const struct elf_image *img,
                                              uint64_t vaddr) {
  size_t lo = 0, hi = img->num_syms;
  while (lo < hi) { /* first symbol above vaddr */
    size_t mid = lo + (hi - lo) / 2;
    if (img->syms[mid].addr <= vaddr)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* Nested or overlapping symbols are rare; a short look back finds the
   * innermost one that contains vaddr. */
  for (size_t i = lo, seen = 0; i > 0 && seen < 64; i--, seen++) {
    const struct func_symbol *s = &img->syms[i - 1];
    if (vaddr < s->addr + s->size || vaddr == s->addr)
      return s;
  }
  return NULL;
}

/* ---- Mappings of a process ---------------------------------------------- */

void as_clear(struct addr_space *as) {
  for (size_t i = 0; i < as->count; i++)
    free(as->regions[i].name);
  as->count = 0;
  as->stale = false;
}

static void as_append(struct addr_space *as, const struct region *r) {
  if (as->count == as->capacity) {
    as->capacity = as->capacity ? 2 * as->capacity : 64;
    as->regions = xrealloc(as->regions, as->capacity * sizeof *as->regions);
  }
  as->regions[as->count++] = *r;
}

/* Parses one line of a maps file into *r if it is an executable mapping
 * (or any mapping, with any_permissions). */
static bool parse_maps_line(const char *line, bool any_permissions,
                            struct region *r) {
  unsigned long start, end, offset, major, minor, inode;
  char perms[8];
  int name_at = 0;
  if (sscanf(line, "%lx-%lx %7s %lx %lx:%lx %lu %n", &start, &end, perms,
             &offset, &major, &minor, &inode, &name_at) < 7 ||
      (!any_permissions && strchr(perms, 'x') == NULL))
    return false;
  const char *name = name_at > 0 ? line + name_at : "";
  size_t len = strcspn(name, "\n");
  char path[4096];
  snprintf(path, sizeof path, "%.*s", (int)len, len ? name : "[anon]");
  r->start = start;
  r->end = end;
  r->offset = offset;
  r->name = xstrdup(path);
  r->image = path[0] == '/' && inode != 0 ? image_get(path, major, minor, inode)
                                          : NULL;
  return true;
}

/* Rereads the executable mappings. Threads share them, so any thread's
 * maps file will do; the leader's may be gone already. */
static void as_reload(struct addr_space *as, pid_t tid) {
  char file[64], *line = NULL;
  size_t cap = 0;
  snprintf(file, sizeof file, "/proc/%d/maps", (int)tid);
  FILE *f = fopen(file, "re");
  as_clear(as);
  if (!f)
    return;
  while (getline(&line, &cap, f) > 0) {
    struct region r;
    if (parse_maps_line(line, as->any_permissions, &r))
      as_append(as, &r);
  }
  free(line);
  fclose(f);
}

static const struct region *as_find(const struct addr_space *as,
                                    uint64_t addr) {
  size_t lo = 0, hi = as->count; /* the maps file is sorted */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const struct region *r = &as->regions[mid];
    if (addr < r->start)
      hi = mid;
    else if (addr >= r->end)
      lo = mid + 1;
    else
      return r;
  }
  return NULL;
}

const struct region *as_lookup(struct addr_space *as, pid_t tid,
                               uint64_t addr) {
  const struct region *r = as->stale ? NULL : as_find(as, addr);
  if (!r) {
    as_reload(as, tid);
    r = as_find(as, addr);
  }
  return r;
}

static bool image_in_thunk(const struct elf_image *img, uint64_t vaddr) {
  for (size_t i = 0; i < img->num_thunks; i++)
    if (vaddr >= img->thunks[i].start && vaddr < img->thunks[i].end)
      return true;
  return false;
}

/* The image of r, parsed on first use, and the link-time address of addr
 * in it; false for anonymous mappings and for addresses outside the file's
 * PT_LOADs. */
static bool region_vaddr(const struct region *r, uint64_t addr,
                         struct elf_image **img, uint64_t *vaddr) {
  if (!r || !r->image)
    return false;
  if (!r->image->parsed) {
    parse_elf(r->image);
    r->image->parsed = true;
  }
  *img = r->image;
  return image_vaddr(r->image, addr - r->start + r->offset, vaddr);
}

bool as_in_refill_thunk(struct addr_space *as, pid_t tid, uint64_t addr) {
  struct elf_image *img;
  uint64_t vaddr;
  return region_vaddr(as_lookup(as, tid, addr), addr, &img, &vaddr) &&
         image_in_thunk(img, vaddr);
}

bool as_in_trap_push(struct addr_space *as, pid_t tid, uint64_t addr) {
  enum code_role role = as_code_role(as, tid, addr);
  return role == CODE_RESET || role == CODE_SIGNAL_FILL;
}

bool as_in_instrumented_code(struct addr_space *as, pid_t tid, uint64_t addr) {
  struct elf_image *img;
  uint64_t vaddr;
  if (!region_vaddr(as_lookup(as, tid, addr), addr, &img, &vaddr))
    return false;
  const struct func_symbol *s = image_symbol(img, vaddr);
  // The runtime's assembly helpers with a role (the reset, the copy of the
  // indirect call, ...) are rsb-stuff's code too: their own returns must not
  // underflow either. Its C functions (start-up checks, the API) return
  // plainly, as any library does.
  return image_in_thunk(img, vaddr) ||
         (s && (s->instrumented ||
                (s->role != CODE_OTHER && s->role != CODE_INSTRUMENTED)));
}

enum code_role as_code_role(struct addr_space *as, pid_t tid, uint64_t addr) {
  struct elf_image *img;
  uint64_t vaddr;
  if (!region_vaddr(as_lookup(as, tid, addr), addr, &img, &vaddr))
    return CODE_OTHER;
  const struct func_symbol *s = image_symbol(img, vaddr);
  return s ? s->role : CODE_OTHER;
}

void as_describe(struct addr_space *as, pid_t tid, uint64_t addr, char *buf,
                 size_t size) {
  const struct region *r = as_lookup(as, tid, addr);
  const struct func_symbol *s = NULL;
  struct elf_image *img;
  uint64_t vaddr;
  bool in_file = region_vaddr(r, addr, &img, &vaddr);
  if (in_file)
    s = image_symbol(img, vaddr);
  if (s)
    snprintf(buf, size, "%s+0x%" PRIx64 " (%s)", s->name, vaddr - s->addr,
             r->name);
  else if (in_file) /* stripped: the link-time address, for objdump */
    snprintf(buf, size, "?? [0x%" PRIx64 "] (%s)", vaddr, r->name);
  else
    snprintf(buf, size, "?? (%s)", r ? r->name : "unmapped");
}
