/*===- plugin.c - The QEMU engine: the model inside qemu-x86_64 -----------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * A TCG plugin for qemu-x86_64 (rsb-check's default engine; qemu.c starts
 * it, utils/build-qemu builds the QEMU). QEMU translates the program's code
 * block by block; at translation this plugin decodes each instruction
 * (decode.c) and asks QEMU to call it back when a call stores its return
 * address or a return loads its target. Those memory callbacks run after
 * the access, with the value it moved: an instruction that faults before
 * it is not counted, and the values are the ones the instruction used. At
 * run time they drive the model (model.c) of the executing guest thread, at
 * close to QEMU's own speed.
 *
 * --refill-profile also follows the writes of rsb-stuff's code to the
 * counter (profile.c). Its shifts, one per counted call and per return,
 * cost no callback: QEMU counts them inline in the thread's pending
 * shifts, and the next call, return or other write hands them to the
 * profile first, which keeps their order (an entry's `sar` comes right
 * after a call, a return's check right before a return). The other
 * writes, few, call back with their value.
 *
 * Threads: QEMU runs each guest thread on a host thread of its own, in
 * parallel, and numbers them (the vcpu index, reused after a thread ends).
 * Each thread's model and counts are touched by that thread only; the
 * underflow list, the symbols and the output are shared under one lock.
 *
 * Processes: the counts live in the process's record file (record.c),
 * which survives any death. At fork (pthread_atfork, inside QEMU's fork())
 * the child takes a new record and keeps the forking thread's model, as a
 * CPU's RSB would be. At execve the plugin runs the new program under QEMU
 * itself (launch.c), continuing the same record; qemu-user would run it
 * natively. An exit prints the process's report; after a fatal signal
 * rsb-check (qemu.c) prints it from the record.
 *
 *===----------------------------------------------------------------------===*/

#include "options.h"

#include "alloc.h"
#include "decode.h"
#include "launch.h"
#include "model.h"
#include "qemu-plugin-api.h"
#include "record.h"
#include "report.h"
#include "symbols.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define INT3_BYTE 0xcc
/* Recent int3 lookups per thread: a refill's traps are few addresses
 * predicted over and over. */
#define TRAP_CACHE_SLOTS 64
/* Marks a call of a refill in its callback's data, the call's address. */
#define REFILL_BIT ((uintptr_t)1 << 63)
/* Marks a call that pushes trap entries and never returns (the reset's one,
 * the signal wrapper's fill): as_in_trap_push. */
#define TRAP_BIT ((uintptr_t)1 << 62)
/* Where a counter write's callback data keeps its enum counter_write,
 * above the instruction's address. */
#define WRITE_KIND_SHIFT 56
/* Longest argument or environment string followed into an execve. */
#define MAX_STRING (128 * 1024)

/* --refill-profile: a thread's shifts of the counter since its last call,
 * return or other write to it, one scoreboard element a thread. */
struct pending_shifts {
  uint64_t entry_sars, call_sars, caller_sars; /* how many */
  uint64_t check, tail_check; /* the address of the last, or 0 */
};

struct trap_entry {
  uint64_t addr, generation; /* generation + 1: a zeroed entry never hits */
  bool trap;
};

/* One guest thread. */
struct vcpu {
  struct model_thread model;
  struct counts *counts; /* its slot in the record */
  /* -v: the counter as the last `shl %fs:` of a return found it. */
  bool counter_valid;
  uint64_t counter;
  GByteArray *bytes; /* for reads of guest memory */
  struct trap_entry traps[TRAP_CACHE_SLOTS];
};

static struct {
  /* From the plugin's arguments (qemu.c, and plugin_spec for an exec). */
  char dir[PATH_MAX], record_path[PATH_MAX], qemu[PATH_MAX], self[PATH_MAX];
  char program[PATH_MAX];
  int out_fd, supervisor;
  dev_t out_dev;
  ino_t out_ino;
  struct report_options report;
  bool continued;
  unsigned rsb_size;

  struct record *record;
  struct site_index underflow_index, loss_index;
  /* The underflow and loss lists, the symbols and the exit status. */
  pthread_mutex_t lock;
  struct addr_space as;
  struct vcpu *vcpus[RECORD_MAX_THREADS];
  struct qemu_plugin_scoreboard *instructions; /* one uint64_t a thread */
  struct qemu_plugin_scoreboard *shifts;       /* --refill-profile: pending */
  bool first_thread_seen;
  atomic_int live_threads;
  /* An exit() of the last thread or an exit_group() was made, with this
   * status: QEMU also calls the exit callback before dying of a signal. */
  bool exit_called;
  int exit_status;
  /* Bumped when the guest may have remapped code (mmap and friends). */
  atomic_uint_fast64_t code_generation;
} pl;

/* The thread that calls fork(): the one the child keeps. */
static __thread int forking_vcpu = -1;
static __thread pid_t forking_tid;
static __thread uint64_t clone_flags;
/* The execve this thread is making runs a program without the model. */
static __thread bool unfollowed_exec;

/* ---- Output ------------------------------------------------------------- */

/* A descriptor for rsb-check's output when the program closed or reused
 * the one rsb-check handed down: rsb-check's own, through /proc, if it is
 * a pipe or a terminal. Not a regular file: a new open file description
 * would not share the program's file position, and the program's output
 * would overwrite the report; rsb-check then prints it from the record. */
static int reopen_output(void) {
  char path[64];
  struct stat st;
  snprintf(path, sizeof path, "/proc/%d/fd/%d", pl.supervisor, pl.out_fd);
  if (stat(path, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)))
    return -1;
  return open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
}

/* Writes text where rsb-check reports. False if it cannot (rsb-check then
 * reports from the record). */
static bool emit(const char *text, size_t len) {
  struct stat st;
  int fd = pl.out_fd;
  bool own =
      fstat(fd, &st) == 0 && st.st_dev == pl.out_dev && st.st_ino == pl.out_ino;
  if (!own && (fd = reopen_output()) < 0)
    return false;
  bool ok = true;
  while (len > 0) {
    ssize_t n = write(fd, text, len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      ok = false;
      break;
    }
    text += n;
    len -= (size_t)n;
  }
  if (!own)
    close(fd);
  return ok;
}

/* printf to the report, as one write. */
static __attribute__((format(printf, 1, 2))) bool say(const char *fmt, ...) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return false;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fclose(f);
  bool ok = emit(text, len);
  free(text);
  return ok;
}

static __attribute__((noreturn)) void fail(const char *what) {
  say("rsb-check: pid %d: %s\n", getpid(), what);
  _exit(EXIT_INTERNAL);
}

/* ---- Guest memory ------------------------------------------------------- */

/* Copies guest memory of the calling thread's process into buf; false if
 * any of it is not mapped. */
static bool guest_read(GByteArray *bytes, uint64_t addr, void *buf,
                       size_t len) {
  if (!qemu_plugin_read_memory_vaddr(addr, bytes, len))
    return false;
  memcpy(buf, bytes->data, len);
  return true;
}

/* A NUL-terminated guest string, or NULL if unreadable or too long. */
static char *guest_string(GByteArray *bytes, uint64_t addr) {
  char *s = NULL;
  for (size_t len = 0; len < MAX_STRING;) {
    /* Up to the end of the page: the next one may be unmapped. */
    size_t want = 4096 - ((addr + len) & 4095);
    s = xrealloc(s, len + want);
    if (guest_read(bytes, addr + len, s + len, want)) {
      if (memchr(s + len, '\0', want))
        return s;
      len += want;
      continue;
    }
    /* Part of the page is unmapped: the string may still end before. */
    for (size_t i = 0; i < want; i++) {
      if (!guest_read(bytes, addr + len + i, s + len + i, 1))
        break;
      if (s[len + i] == '\0')
        return s;
    }
    break;
  }
  free(s);
  return NULL;
}

/* A guest argv or envp: NULL-terminated array of strings, or NULL. */
static char **guest_vector(GByteArray *bytes, uint64_t addr) {
  size_t count = 0;
  char **v = xcalloc(1, sizeof *v);
  for (uint64_t p; addr; addr += sizeof p) {
    if (!guest_read(bytes, addr, &p, sizeof p))
      break;
    if (!p)
      return v;
    v = xrealloc(v, (count + 2) * sizeof *v);
    v[count] = guest_string(bytes, p);
    v[++count] = NULL;
    if (!v[count - 1])
      break;
  }
  for (size_t i = 0; i < count; i++)
    free(v[i]);
  free(v);
  return NULL;
}

static void free_vector(char **v) {
  for (char **p = v; p && *p; p++)
    free(*p);
  free(v);
}

static bool guest_is_trap(uint64_t addr, void *ctx) {
  struct vcpu *v = ctx;
  uint64_t generation = atomic_load(&pl.code_generation) + 1;
  struct trap_entry *e = &v->traps[(addr ^ addr >> 6) % TRAP_CACHE_SLOTS];
  if (e->addr != addr || e->generation != generation) {
    uint8_t byte = 0;
    *e = (struct trap_entry){addr, generation,
                             guest_read(v->bytes, addr, &byte, 1) &&
                                 byte == INT3_BYTE};
  }
  return e->trap;
}

/* ---- Executed calls and returns ----------------------------------------- */

static void note_refill(struct vcpu *v, uint64_t call_addr) {
  char where[UNDERFLOW_WHERE_SIZE], counter[64] = "";
  pthread_mutex_lock(&pl.lock);
  as_describe(&pl.as, getpid(), call_addr, where, sizeof where);
  pthread_mutex_unlock(&pl.lock);
  if (v->counter_valid)
    snprintf(counter, sizeof counter, " counter=0x%016" PRIx64 "%s", v->counter,
             v->counter << RSB_DEPTH_SHIFT ? " (not spent!)" : "");
  v->counter_valid = false;
  say("rsb-check: pid %d tid %d: refill at %s: model-rsb=%u%s\n", getpid(),
      gettid(), where, v->model.refill_occupancy, counter);
}

static uint64_t access_value(qemu_plugin_meminfo_t info) {
  return qemu_plugin_mem_get_value(info).data.u64;
}

/* Hands the thread's pending shifts to its profile, in the order they ran
 * (see the top); nothing without a profile. */
static void flush_shifts(unsigned vcpu, struct vcpu *v) {
  struct profile *p = v->model.profile;
  if (!p)
    return;
  struct pending_shifts *s = qemu_plugin_scoreboard_find(pl.shifts, vcpu);
  for (; s->entry_sars; s->entry_sars--)
    profile_shift(p, v->model.exact, WRITE_ENTRY_SAR, 0);
  for (; s->call_sars; s->call_sars--)
    profile_shift(p, v->model.exact, WRITE_CALL_SAR, 0);
  for (; s->caller_sars; s->caller_sars--)
    profile_shift(p, v->model.exact, WRITE_CALLER_SAR, 0);
  if (s->check)
    profile_shift(p, v->model.exact, WRITE_CHECK, s->check);
  if (s->tail_check)
    profile_shift(p, v->model.exact, WRITE_TAIL_CHECK, s->tail_check);
  s->check = s->tail_check = 0;
}

static void on_call_store(unsigned vcpu, qemu_plugin_meminfo_t info,
                          uint64_t vaddr, void *data) {
  (void)vaddr;
  struct vcpu *v = pl.vcpus[vcpu];
  bool in_refill = (uintptr_t)data & REFILL_BIT;
  bool trap = (uintptr_t)data & TRAP_BIT;
  uint64_t call_addr = (uintptr_t)data & ~(REFILL_BIT | TRAP_BIT);
  flush_shifts(vcpu, v);
  if (model_call(&v->model, v->counts, call_addr, access_value(info), in_refill,
                 trap) &&
      pl.report.verbose)
    note_refill(v, call_addr);
}

static void record_underflow(struct vcpu *v, uint64_t addr, uint64_t target) {
  pthread_mutex_lock(&pl.lock);
  bool foreign = !as_in_instrumented_code(&pl.as, getpid(), addr), added;
  v->counts->foreign_underflows += foreign;
  struct underflow *u = underflow_entry(record_underflows(pl.record),
                                        &pl.underflow_index, addr, &added);
  if (u && added) {
    u->target = target;
    u->foreign = foreign;
    as_describe(&pl.as, getpid(), addr, u->where, sizeof u->where);
  }
  if (u)
    u->count++;
  pthread_mutex_unlock(&pl.lock);
}

/* Called with pl.lock held. */
static void describe_guest(uint64_t addr, char *buf, size_t size, void *ctx) {
  (void)ctx;
  as_describe(&pl.as, getpid(), addr, buf, size);
}

static void on_ret_load(unsigned vcpu, qemu_plugin_meminfo_t info,
                        uint64_t vaddr, void *ret_addr) {
  (void)vaddr;
  struct vcpu *v = pl.vcpus[vcpu];
  uint64_t target = access_value(info);
  flush_shifts(vcpu, v);
  if (model_ret(&v->model, v->counts, target, guest_is_trap, v) ==
      RET_UNDERFLOW)
    record_underflow(v, (uintptr_t)ret_addr, target);
  struct profile *p = v->model.profile;
  if (p && p->verdict != VERDICT_NONE) {
    pthread_mutex_lock(&pl.lock);
    profile_settle(p, record_losses(pl.record), &pl.loss_index, describe_guest,
                   NULL);
    pthread_mutex_unlock(&pl.lock);
  }
}

/* --refill-profile: a write to %fs memory by rsb-stuff's code other than
 * a counter shift, which may be the counter's. */
static void on_counter_store(unsigned vcpu, qemu_plugin_meminfo_t info,
                             uint64_t vaddr, void *data) {
  static const unsigned sizes[] = {[QEMU_PLUGIN_MEM_VALUE_U8] = 1,
                                   [QEMU_PLUGIN_MEM_VALUE_U16] = 2,
                                   [QEMU_PLUGIN_MEM_VALUE_U32] = 4,
                                   [QEMU_PLUGIN_MEM_VALUE_U64] = 8,
                                   [QEMU_PLUGIN_MEM_VALUE_U128] = 8};
  struct vcpu *v = pl.vcpus[vcpu];
  qemu_plugin_mem_value value = qemu_plugin_mem_get_value(info);
  uintptr_t d = (uintptr_t)data;
  flush_shifts(vcpu, v);
  profile_store(v->model.profile, v->model.exact,
                (enum counter_write)(d >> WRITE_KIND_SHIFT),
                d & (((uintptr_t)1 << WRITE_KIND_SHIFT) - 1), vaddr,
                sizes[value.type], value.data.u64);
}

static void on_far_branch(unsigned vcpu, void *unused) {
  (void)unused;
  pl.vcpus[vcpu]->counts->unknown++;
}

/* -v: the counter a return's `shl $5, %fs:...` is about to shift. */
static void on_counter_load(unsigned vcpu, qemu_plugin_meminfo_t info,
                            uint64_t vaddr, void *unused) {
  (void)vaddr, (void)unused;
  struct vcpu *v = pl.vcpus[vcpu];
  v->counter = access_value(info);
  v->counter_valid = true;
}

/* Moves a thread's instructions from QEMU's inline counter (a scoreboard:
 * no callback per block) into its slot of the record. Done when the
 * thread ends, the process ends or execs; a SIGKILL loses the last. */
static void sync_instructions(unsigned vcpu) {
  qemu_plugin_u64 counter = qemu_plugin_scoreboard_u64(pl.instructions);
  pl.vcpus[vcpu]->counts->instructions += qemu_plugin_u64_get(counter, vcpu);
  qemu_plugin_u64_set(counter, vcpu, 0);
}

static void sync_all_instructions(void) {
  for (unsigned i = 0; i < RECORD_MAX_THREADS; i++)
    if (pl.vcpus[i])
      sync_instructions(i);
}

/* ---- Translation -------------------------------------------------------- */

static bool symbol_test(bool (*test)(struct addr_space *, pid_t, uint64_t),
                        uint64_t addr) {
  pthread_mutex_lock(&pl.lock);
  bool result = test(&pl.as, getpid(), addr);
  pthread_mutex_unlock(&pl.lock);
  return result;
}

/* The field of struct pending_shifts at offset, as an inline operand. */
static qemu_plugin_u64 pending_field(size_t offset) {
  return (qemu_plugin_u64){pl.shifts, offset};
}

/* Only the writes of rsb-stuff's code (its functions and the runtime): the
 * others are not the counter's. */
static void instrument_counter_write(struct qemu_plugin_insn *insn,
                                     const struct insn *decoded,
                                     uint64_t vaddr) {
  pthread_mutex_lock(&pl.lock);
  enum code_role role = as_code_role(&pl.as, getpid(), vaddr);
  pthread_mutex_unlock(&pl.lock);
  enum counter_write w = counter_write_of(decoded, role);
  enum qemu_plugin_op op = QEMU_PLUGIN_INLINE_STORE_U64;
  uint64_t imm = vaddr;
  size_t field;
  switch (w) {
  case WRITE_NONE:
    return;
  case WRITE_ENTRY_SAR:
  case WRITE_CALL_SAR:
  case WRITE_CALLER_SAR:
    op = QEMU_PLUGIN_INLINE_ADD_U64;
    imm = 1;
    field = w == WRITE_ENTRY_SAR ? offsetof(struct pending_shifts, entry_sars)
            : w == WRITE_CALL_SAR
                ? offsetof(struct pending_shifts, call_sars)
                : offsetof(struct pending_shifts, caller_sars);
    break;
  case WRITE_CHECK:
    field = offsetof(struct pending_shifts, check);
    break;
  case WRITE_TAIL_CHECK:
    field = offsetof(struct pending_shifts, tail_check);
    break;
  default:
    qemu_plugin_register_vcpu_mem_cb(
        insn, on_counter_store, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_W,
        (void *)(uintptr_t)(vaddr | (uint64_t)w << WRITE_KIND_SHIFT));
    return;
  }
  qemu_plugin_register_vcpu_mem_inline_per_vcpu(insn, QEMU_PLUGIN_MEM_W, op,
                                                pending_field(field), imm);
}

static void instrument(struct qemu_plugin_insn *insn) {
  uint8_t code[16];
  size_t size = qemu_plugin_insn_data(insn, code, sizeof code);
  uint64_t vaddr = qemu_plugin_insn_vaddr(insn);
  struct insn decoded;
  x86_decode(code, size, &decoded);
  switch (decoded.kind) {
  case INSN_CALL: {
    /* The top bits, never set in a user-space address: a refill's call,
     * the reset's push of an entry at a trap. */
    uintptr_t data = (uintptr_t)vaddr |
                     (symbol_test(as_in_refill_thunk, vaddr) ? REFILL_BIT : 0) |
                     (symbol_test(as_in_trap_push, vaddr) ? TRAP_BIT : 0);
    qemu_plugin_register_vcpu_mem_cb(insn, on_call_store,
                                     QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_W,
                                     (void *)(data));
    break;
  }
  case INSN_RET:
    qemu_plugin_register_vcpu_mem_cb(insn, on_ret_load, QEMU_PLUGIN_CB_NO_REGS,
                                     QEMU_PLUGIN_MEM_R,
                                     (void *)(uintptr_t)vaddr);
    break;
  case INSN_FAR:
    qemu_plugin_register_vcpu_insn_exec_cb(insn, on_far_branch,
                                           QEMU_PLUGIN_CB_NO_REGS, NULL);
    break;
  case INSN_FS_WRITE:
    if (pl.report.verbose && decoded.op == FS_SHL &&
        symbol_test(as_in_instrumented_code, vaddr))
      qemu_plugin_register_vcpu_mem_cb(insn, on_counter_load,
                                       QEMU_PLUGIN_CB_NO_REGS,
                                       QEMU_PLUGIN_MEM_R, NULL);
    if (pl.report.refill_profile)
      instrument_counter_write(insn, &decoded, vaddr);
    break;
  default:
    break;
  }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(
      tb, QEMU_PLUGIN_INLINE_ADD_U64,
      qemu_plugin_scoreboard_u64(pl.instructions), n);
  for (size_t i = 0; i < n; i++)
    instrument(qemu_plugin_tb_get_insn(tb, i));
}

/* ---- Threads ------------------------------------------------------------ */

static void on_thread_start(qemu_plugin_id_t id, unsigned vcpu) {
  (void)id;
  if (vcpu >= RECORD_MAX_THREADS)
    fail("more threads at once than rsb-check models (8192)");
  struct vcpu *v = xcalloc(1, sizeof *v);
  model_thread_init(&v->model, pl.rsb_size, pl.report.refill_profile);
  if (pl.report.refill_profile) /* a thread number is reused */
    memset(qemu_plugin_scoreboard_find(pl.shifts, vcpu), 0,
           sizeof(struct pending_shifts));
  v->bytes = g_byte_array_new();
  v->counts = &pl.record->slots[vcpu].counts;
  atomic_fetch_add(&pl.live_threads, 1);
  pthread_mutex_lock(&pl.lock); /* threads may clone at the same time */
  if (pl.record->slots_used <= vcpu)
    pl.record->slots_used = vcpu + 1;
  pthread_mutex_unlock(&pl.lock);
  /* The first thread of an exec'd program is the thread that exec'd. */
  if (!(pl.continued && !pl.first_thread_seen))
    v->counts->threads++;
  pl.first_thread_seen = true;
  pl.vcpus[vcpu] = v;
}

static void on_thread_end(qemu_plugin_id_t id, unsigned vcpu) {
  (void)id;
  struct vcpu *v = pl.vcpus[vcpu];
  if (v)
    sync_instructions(vcpu);
  pl.vcpus[vcpu] = NULL;
  if (v) {
    atomic_fetch_sub(&pl.live_threads, 1);
    model_thread_free(&v->model);
    g_byte_array_unref(v->bytes);
    free(v);
  }
}

/* ---- Processes ---------------------------------------------------------- */

static void fork_prepare(void) { pthread_mutex_lock(&pl.lock); }

static void fork_parent(void) { pthread_mutex_unlock(&pl.lock); }

/* In the child, single-threaded: a new record, only the forking thread. */
static void fork_child(void) {
  pthread_mutex_init(&pl.lock, NULL);
  int parent = getppid();
  if (!record_replace(pl.record, pl.dir, getpid(), pl.record_path))
    fail("cannot create the child's record");
  site_index_free(&pl.underflow_index);
  site_index_free(&pl.loss_index);
  for (unsigned i = 0; i < RECORD_MAX_THREADS; i++)
    if (pl.vcpus[i] && (int)i != forking_vcpu)
      on_thread_end(0, i);
  if (forking_vcpu >= 0 && pl.vcpus[forking_vcpu]) {
    struct vcpu *v = pl.vcpus[forking_vcpu];
    pl.record->slots_used = (unsigned)forking_vcpu + 1;
    v->counts->threads = 1;
    if (v->model.profile)
      profile_forget_charges(v->model.profile);
    /* What it ran before the fork is the parent's. */
    qemu_plugin_u64_set(qemu_plugin_scoreboard_u64(pl.instructions),
                        (unsigned)forking_vcpu, 0);
  }
  if (pl.report.verbose)
    say("rsb-check: pid %d: new process %d (from %d)\n", parent, getpid(),
        forking_tid);
}

/* The plugin's arguments for a program this process execs. */
static char *exec_spec(void) {
  char *spec = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&spec, &len);
  if (!f)
    return NULL;
  fprintf(f,
          "%s,self=%s,dir=%s,record=%s,out=%d:%ju:%ju,supervisor=%d,"
          "rsb-size=%u,verbose=%s,list-underflows=%s,refill-profile=%s,"
          "qemu=%s,continued=on",
          pl.self, pl.self, pl.dir, pl.record_path, pl.out_fd,
          (uintmax_t)pl.out_dev, (uintmax_t)pl.out_ino, pl.supervisor,
          pl.rsb_size, pl.report.verbose ? "on" : "off",
          pl.report.list_underflows ? "on" : "off",
          pl.report.refill_profile ? "on" : "off", pl.qemu);
  fclose(f);
  return spec;
}

/* The path execveat() names, as one path. */
static char *execveat_path(int64_t dirfd, const char *path, uint64_t flags) {
  char buf[PATH_MAX + 64];
  if (path[0] == '/' || (dirfd == AT_FDCWD && path[0]))
    return xstrdup(path);
  if (!path[0] && (flags & AT_EMPTY_PATH))
    snprintf(buf, sizeof buf, "/proc/self/fd/%d", (int)dirfd);
  else
    snprintf(buf, sizeof buf, "/proc/self/fd/%d/%s", (int)dirfd, path);
  return xstrdup(buf);
}

/* Before an execve that QEMU will make natively: if it succeeds, the
 * program runs unchecked, which the record tells rsb-check (the process
 * cannot: it is gone). If it fails, on_syscall_return takes it back. */
static void mark_unfollowed(unsigned vcpu, const char *path, const char *why) {
  struct record *r = pl.record;
  r->unfollowed = 1;
  snprintf(r->unfollowed_exe, sizeof r->unfollowed_exe, "%s (%s)", path, why);
  pl.vcpus[vcpu]->counts->unmodelled++;
  unfollowed_exec = true;
}

/* execve() returned: it failed, and nothing ran unchecked. */
static void unmark_unfollowed(unsigned vcpu) {
  unfollowed_exec = false;
  pl.record->unfollowed = 0;
  pl.vcpus[vcpu]->counts->unmodelled--;
}

/* QEMU's own program for /proc/self/exe, which names QEMU on the host
 * (QEMU makes the same substitution, linux-user/syscall.c). */
static bool names_own_exe(const char *path) {
  char own[64];
  snprintf(own, sizeof own, "/proc/%d/exe", getpid());
  return strcmp(path, "/proc/self/exe") == 0 || strcmp(path, own) == 0;
}

/* execve(): runs the new program under QEMU and this plugin, in this
 * process and continuing its record. Returns when it cannot: then QEMU
 * makes the real execve, which fails as it should or runs the program
 * natively (marked as not modelled). */
static void follow_exec(unsigned vcpu, const char *path, uint64_t argv_addr,
                        uint64_t envp_addr) {
  GByteArray *bytes = pl.vcpus[vcpu]->bytes;
  char **argv = guest_vector(bytes, argv_addr);
  char **envp = guest_vector(bytes, envp_addr);
  char *spec = exec_spec(), why[PATH_MAX + 128];
  struct launch_plan plan;
  int err;
  if (!argv || !envp || !spec) {
    free_vector(argv);
    free_vector(envp);
    free(spec);
    return; /* unreadable arguments: the real execve fails with EFAULT */
  }
  if (names_own_exe(path))
    path = pl.record->exe;
  enum launch_result r = launch_prepare(pl.qemu, spec, path, argv, envp, &plan,
                                        &err, why, sizeof why);
  if (r == LAUNCH_OK) {
    sync_all_instructions();
    int flags = fcntl(pl.out_fd, F_GETFD);
    if (flags >= 0)
      fcntl(pl.out_fd, F_SETFD, flags & ~FD_CLOEXEC);
    execve(plan.argv[0], plan.argv, plan.envp);
    snprintf(why, sizeof why, "cannot run %s: %s", plan.argv[0],
             strerror(errno));
    launch_plan_free(&plan);
    mark_unfollowed(vcpu, path, why);
  } else if (r == LAUNCH_FOREIGN) {
    mark_unfollowed(vcpu, path, why);
  }
  free_vector(argv);
  free_vector(envp);
  free(spec);
}

static bool remaps_code(int64_t nr) {
  return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mremap ||
         nr == SYS_mprotect;
}

static void on_syscall(qemu_plugin_id_t id, unsigned vcpu, int64_t nr,
                       uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8) {
  (void)id, (void)a6, (void)a7, (void)a8;
  GByteArray *bytes = pl.vcpus[vcpu]->bytes;
  char *path;
  switch (nr) {
  case SYS_execve:
    if ((path = guest_string(bytes, a1)))
      follow_exec(vcpu, path, a2, a3);
    free(path);
    break;
  case SYS_execveat:
    if ((path = guest_string(bytes, a2))) {
      char *full = execveat_path((int64_t)(int)a1, path, a5);
      follow_exec(vcpu, full, a3, a4);
      free(full);
    }
    free(path);
    break;
  case SYS_clone:
  case SYS_fork:
  case SYS_vfork:
    forking_vcpu = (int)vcpu;
    forking_tid = gettid();
    clone_flags = nr == SYS_clone ? a1 : 0;
    break;
  case SYS_exit:
  case SYS_exit_group:
    if (nr == SYS_exit_group || atomic_load(&pl.live_threads) == 1) {
      pl.exit_called = true;
      pl.exit_status = (int)(a1 & 0xff);
    }
    break;
  default:
    if (remaps_code(nr)) {
      atomic_fetch_add(&pl.code_generation, 1);
      pthread_mutex_lock(&pl.lock);
      pl.as.stale = true;
      pthread_mutex_unlock(&pl.lock);
    }
    break;
  }
}

static void on_syscall_return(qemu_plugin_id_t id, unsigned vcpu, int64_t nr,
                              int64_t ret) {
  (void)id;
  if ((nr == SYS_execve || nr == SYS_execveat) && unfollowed_exec)
    unmark_unfollowed(vcpu);
  if (nr == SYS_clone && (clone_flags & CLONE_THREAD) && ret > 0 &&
      pl.report.verbose)
    say("rsb-check: pid %d: new thread %d (from %d)\n", getpid(), (int)ret,
        gettid());
}

/* exit() or exit_group(): the process reports itself. QEMU also calls
 * this before it dies of a signal, which only rsb-check can name. */
static void on_exit_call(qemu_plugin_id_t id, void *unused) {
  (void)id, (void)unused;
  struct record *r = pl.record;
  struct counts counts;
  sync_all_instructions();
  if (!pl.exit_called)
    return;
  r->exited = 1;
  r->exit_status = pl.exit_status;
  record_counts(r, &counts);
  struct process_report report = {.pid = getpid(),
                                  .exe = r->exe,
                                  .end = END_EXITED,
                                  .status = pl.exit_status,
                                  .counts = &counts,
                                  .underflows = record_underflows(r),
                                  .losses = record_losses(r)};
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return;
  print_process_report(f, &report, &pl.report);
  fclose(f);
  if (emit(text, len))
    r->state = RECORD_REPORTED;
  free(text);
}

/* ---- Installation ------------------------------------------------------- */

static bool parse_bool(const char *value) { return strcmp(value, "on") == 0; }

/* key=value arguments from qemu.c (see qemu_spec there) or exec_spec. */
static bool parse_args(int argc, char **argv) {
  pl.rsb_size = DEFAULT_RSB_SIZE;
  pl.out_fd = -1;
  for (int i = 0; i < argc; i++) {
    char *eq = strchr(argv[i], '=');
    if (!eq)
      return false;
    const char *key = argv[i], *value = eq + 1;
    size_t key_len = (size_t)(eq - key);
#define KEY(k) (key_len == sizeof(k) - 1 && strncmp(key, k, key_len) == 0)
    uintmax_t dev, ino;
    if (KEY("dir"))
      snprintf(pl.dir, sizeof pl.dir, "%s", value);
    else if (KEY("record"))
      snprintf(pl.record_path, sizeof pl.record_path, "%s", value);
    else if (KEY("qemu"))
      snprintf(pl.qemu, sizeof pl.qemu, "%s", value);
    else if (KEY("self"))
      snprintf(pl.self, sizeof pl.self, "%s", value);
    else if (KEY("program"))
      snprintf(pl.program, sizeof pl.program, "%s", value);
    else if (KEY("out") &&
             sscanf(value, "%d:%ju:%ju", &pl.out_fd, &dev, &ino) == 3)
      pl.out_dev = (dev_t)dev, pl.out_ino = (ino_t)ino;
    else if (KEY("supervisor"))
      pl.supervisor = atoi(value);
    else if (KEY("rsb-size"))
      pl.rsb_size = (unsigned)atoi(value);
    else if (KEY("verbose"))
      pl.report.verbose = parse_bool(value);
    else if (KEY("list-underflows"))
      pl.report.list_underflows = parse_bool(value);
    else if (KEY("refill-profile"))
      pl.report.refill_profile = parse_bool(value);
    else if (KEY("continued"))
      pl.continued = parse_bool(value);
    else
      return false;
#undef KEY
  }
  return pl.dir[0] && pl.qemu[0] && pl.self[0] && pl.program[0] &&
         pl.out_fd >= 0 && pl.rsb_size >= 1 && pl.rsb_size <= MAX_RSB_SIZE;
}

/* The process's record: a new one, or its own after an exec, named after
 * the program as /proc/PID/exe would name it. */
static void open_record(void) {
  char exe[PATH_MAX];
  if (!realpath(pl.program, exe))
    snprintf(exe, sizeof exe, "%s", pl.program);
  if (pl.continued)
    pl.record = record_open(pl.record_path, true);
  else
    pl.record = record_create(pl.dir, getpid(), exe, pl.record_path);
  if (!pl.record)
    fail(pl.continued ? "cannot open the record of the process that exec'd"
                      : "cannot create its record");
  snprintf(pl.record->exe, sizeof pl.record->exe, "%s", exe);
  if (pl.continued && pl.report.verbose)
    say("rsb-check: pid %d: exec %s\n", getpid(), exe);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                           const qemu_info_t *info, int argc,
                                           char **argv) {
  if (info->system_emulation || strcmp(info->target_name, "x86_64") != 0 ||
      !parse_args(argc, argv)) {
    fprintf(stderr, "rsb-check: the model plugin runs in qemu-x86_64 "
                    "started by rsb-check\n");
    return -1;
  }
  pthread_mutex_init(&pl.lock, NULL);
  pl.as.any_permissions = true;
  pl.instructions = qemu_plugin_scoreboard_new(sizeof(uint64_t));
  pl.shifts = qemu_plugin_scoreboard_new(sizeof(struct pending_shifts));
  open_record();
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  qemu_plugin_register_vcpu_init_cb(id, on_thread_start);
  qemu_plugin_register_vcpu_exit_cb(id, on_thread_end);
  qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
  qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
  qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_return);
  qemu_plugin_register_atexit_cb(id, on_exit_call, NULL);
  return 0;
}
