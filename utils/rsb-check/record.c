/*===- record.c - A modelled process's counts, in a shared file -----------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * The QEMU engine models each process inside the process itself (plugin.c),
 * and a process can end without a word: QEMU 7.2 calls no plugin when the
 * guest dies of a signal, and nothing runs after a SIGKILL. So the counts
 * do not live in the process's private memory but in a file that the
 * process maps shared: every call and return updates the file's pages, and
 * rsb-check (qemu.c) reads the file after the process is gone. The file is
 * sparse: a thread's slot, the underflow list and the refill profile's loss
 * list take disk pages only once they are written.
 *
 *===----------------------------------------------------------------------===*/

#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_MAGIC 0x63627372 /* "rsbc" */
/* Bumped when the layout changes: the engine and the plugin of one build
 * share it. */
#define RECORD_VERSION 3

static size_t underflows_size(void) {
  return sizeof(struct underflow_list) +
         UNDERFLOW_LIST_CAPACITY * sizeof(struct underflow);
}

static size_t record_size(void) {
  return sizeof(struct record) + underflows_size() + sizeof(struct loss_list) +
         LOSS_LIST_CAPACITY * sizeof(struct loss_site);
}

struct underflow_list *record_underflows(struct record *rec) {
  return (struct underflow_list *)(rec + 1);
}

struct loss_list *record_losses(struct record *rec) {
  return (struct loss_list *)((char *)record_underflows(rec) +
                              underflows_size());
}

/* A new file for pid in dir: DIR/PID.N, N counting up past the files of
 * earlier processes that had the same pid. */
static int create_file(const char *dir, int pid, char *path) {
  for (unsigned n = 0; n < 1000000; n++) {
    snprintf(path, PATH_MAX, "%s/%d.%u", dir, pid, n);
    int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  errno = EEXIST;
  return -1;
}

/* Sizes a new file, maps it (at addr if not NULL) and writes the header. */
static struct record *init_file(int fd, void *addr, int pid, const char *exe) {
  if (ftruncate(fd, (off_t)record_size()) < 0)
    return NULL;
  void *p = mmap(addr, record_size(), PROT_READ | PROT_WRITE,
                 MAP_SHARED | (addr ? MAP_FIXED : 0), fd, 0);
  if (p == MAP_FAILED)
    return NULL;
  struct record *rec = p;
  rec->magic = RECORD_MAGIC;
  rec->version = RECORD_VERSION;
  rec->pid = pid;
  snprintf(rec->exe, sizeof rec->exe, "%s", exe);
  record_underflows(rec)->capacity = UNDERFLOW_LIST_CAPACITY;
  record_losses(rec)->capacity = LOSS_LIST_CAPACITY;
  return rec;
}

struct record *record_create(const char *dir, int pid, const char *exe,
                             char *path) {
  int fd = create_file(dir, pid, path);
  if (fd < 0)
    return NULL;
  struct record *rec = init_file(fd, NULL, pid, exe);
  int saved = errno;
  close(fd);
  errno = saved;
  return rec;
}

bool record_replace(struct record *rec, const char *dir, int pid, char *path) {
  char exe[sizeof rec->exe];
  memcpy(exe, rec->exe, sizeof exe);
  int fd = create_file(dir, pid, path);
  if (fd < 0)
    return false;
  /* MAP_FIXED drops the parent's pages from this process only. */
  bool ok = init_file(fd, rec, pid, exe) != NULL;
  int saved = errno;
  close(fd);
  errno = saved;
  return ok;
}

struct record *record_open(const char *path, bool writable) {
  int fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return NULL;
  if (fstat(fd, &st) < 0 || (size_t)st.st_size < record_size()) {
    close(fd);
    errno = EINVAL; /* not sized yet: its process died creating it */
    return NULL;
  }
  void *p = mmap(NULL, record_size(), PROT_READ | (writable ? PROT_WRITE : 0),
                 MAP_SHARED, fd, 0);
  int saved = errno;
  close(fd);
  if (p == MAP_FAILED) {
    errno = saved;
    return NULL;
  }
  struct record *rec = p;
  if (rec->magic != RECORD_MAGIC || rec->version != RECORD_VERSION) {
    munmap(p, record_size());
    errno = EINVAL;
    return NULL;
  }
  return rec;
}

void record_close(struct record *rec) { munmap(rec, record_size()); }

void record_counts(const struct record *rec, struct counts *sum) {
  memset(sum, 0, sizeof *sum);
  unsigned used = rec->slots_used < RECORD_MAX_THREADS ? rec->slots_used
                                                       : RECORD_MAX_THREADS;
  for (unsigned i = 0; i < used; i++)
    add_counts(sum, &rec->slots[i].counts);
  sum->processes = 1;
}
