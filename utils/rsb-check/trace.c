/*===- trace.c - ptrace event loop and per-thread RSB model ---------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * Every traced thread is single-stepped. Before each step the instruction at
 * %rip is decoded; after the step its effect is applied to the thread's model
 * RSB: a call pushes the return address it left at (%rsp), a ret pops the
 * prediction and compares it with where the ret went. Reading the result
 * after the step makes every call form (direct, indirect, through memory)
 * and every ret form look the same.
 *
 * A step does not always execute the decoded instruction: a fault, or the
 * trap the kernel reports on the way out of a syscall-stop or into a signal
 * handler, stops the thread with nothing executed. A call or a ret always
 * moves %rsp, so one that left %rsp alone did not run. When a signal is
 * delivered to a handler, the kernel stops again at the handler's first
 * instruction before running it, and the decoded instruction is dropped.
 *
 * Threads (PTRACE_O_TRACECLONE) start with an empty model, forked children
 * with a copy of their parent's, and execve empties it. Signals are passed
 * on unchanged; only the SIGTRAPs of the single-step itself are swallowed.
 *
 *===----------------------------------------------------------------------===*/

#include "trace.h"

#include "alloc.h"
#include "decode.h"
#include "symbols.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* Longest x86 instruction. */
#define INSN_BYTES 15
#define INT3_BYTE 0xcc
/* The runtime's counter shift per call level (runtime/rsb_thunks.S): a
 * refill is due when the return's `shl` leaves zero. */
#define RSB_DEPTH_SHIFT 5

/* One ret whose RSB was empty, deduplicated by the ret's address. */
struct underflow {
  uint64_t addr, target, count;
  bool foreign; /* the ret is outside the code rsb-stuff compiled */
  char *where;  /* symbolized when first seen: the process may be gone later */
};

struct underflow_table {
  struct underflow *items; /* in order of first occurrence */
  size_t count, capacity;
  uint32_t *slots; /* open addressing: index + 1, 0 = empty */
  size_t num_slots;
};

/* A decoded instruction of a file-backed mapping, valid while the
 * process's code generation is unchanged. */
struct decoded {
  uint64_t rip, generation;
  struct insn insn;
};

/* Decoded instructions by address: most steps revisit code, and reading it
 * from the tracee costs a syscall. */
#define DECODE_CACHE_SLOTS 65536

struct proc {
  pid_t pid;
  struct decoded *decode_cache; /* DECODE_CACHE_SLOTS, allocated on use */
  uint64_t code_generation;     /* bumped when the mappings may change */
  char *exe;
  unsigned live_threads;
  int status; /* of the thread group leader, as waitpid reported it */
  bool has_status, reported;
  struct counts counts;
  struct addr_space as;
  struct underflow_table underflows;
  struct proc *next;
};

enum thread_state {
  T_RUNNING,
  T_AWAIT_SIGSTOP, /* created by an event; its first stop is still to come */
  T_ORPHAN,        /* stopped before its creator's event told us about it */
};

/* The model RSB: a ring of `size` entries, the oldest overwritten when full. */
struct rsb_model {
  uint64_t *slot;
  unsigned size, top, count;
};

struct thread {
  pid_t tid;
  struct proc *proc; /* NULL while T_ORPHAN */
  enum thread_state state;
  int orphan_signal;
  struct rsb_model rsb;
  /* The instruction the current step is executing. */
  bool pending;
  uint64_t pending_rip, pending_rsp;
  struct insn insn;
  /* The previous instruction was a refill call: the next one continues it. */
  bool in_refill;
  /* The counter as the last `shl %fs:` of a return found it. */
  bool counter_valid;
  uint64_t counter;
};

static struct {
  const struct options *opts;
  struct thread **threads;
  size_t num_threads, cap_threads;
  struct proc *procs;
  struct counts total;
  pid_t top;
  int top_status;
} tr;

size_t mem_read(pid_t tid, uint64_t addr, void *buf, size_t len) {
  struct iovec local = {buf, len};
  struct iovec remote = {(void *)(uintptr_t)addr, len};
  ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
  size_t got = n > 0 ? (size_t)n : 0;
  /* process_vm_readv needs read permission; ptrace also reads code that
   * is execute-only. */
  while (got < len) {
    errno = 0;
    long word =
        ptrace(PTRACE_PEEKTEXT, tid, (void *)(uintptr_t)(addr + got), NULL);
    if (errno)
      break;
    size_t k = len - got < sizeof word ? len - got : sizeof word;
    memcpy((char *)buf + got, &word, k);
    got += k;
  }
  return got;
}

/* ---- The RSB model ------------------------------------------------------ */

static void rsb_init(struct rsb_model *m, unsigned size) {
  m->slot = xcalloc(size, sizeof *m->slot);
  m->size = size;
  m->top = m->count = 0;
}

static void rsb_push(struct rsb_model *m, uint64_t ret_addr) {
  m->slot[m->top] = ret_addr;
  m->top = (m->top + 1) % m->size;
  if (m->count < m->size)
    m->count++;
}

static bool rsb_pop(struct rsb_model *m, uint64_t *prediction) {
  if (m->count == 0)
    return false;
  m->top = (m->top + m->size - 1) % m->size;
  m->count--;
  *prediction = m->slot[m->top];
  return true;
}

static void rsb_copy(struct rsb_model *dst, const struct rsb_model *src) {
  memcpy(dst->slot, src->slot, src->size * sizeof *src->slot);
  dst->top = src->top;
  dst->count = src->count;
}

/* ---- Processes and threads ---------------------------------------------- */

static char *exe_of(pid_t pid) {
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/%d/exe", (int)pid);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n < 0)
    return xstrdup("?");
  path[n] = '\0';
  return xstrdup(path);
}

static struct proc *proc_new(pid_t pid, const char *exe) {
  struct proc *p = xcalloc(1, sizeof *p);
  p->pid = pid;
  p->exe = exe ? xstrdup(exe) : exe_of(pid);
  p->counts.processes = 1;
  p->next = tr.procs;
  tr.procs = p;
  return p;
}

static struct thread *thread_find(pid_t tid) {
  for (size_t i = 0; i < tr.num_threads; i++)
    if (tr.threads[i]->tid == tid)
      return tr.threads[i];
  return NULL;
}

/* Gives a thread its process: at creation, or once an orphan's creator has
 * reported it. */
static void thread_adopt(struct thread *t, struct proc *p) {
  t->proc = p;
  p->live_threads++;
  p->counts.threads++;
}

/* A thread of p, or an orphan if p is NULL. */
static struct thread *thread_new(pid_t tid, struct proc *p) {
  struct thread *t = xcalloc(1, sizeof *t);
  t->tid = tid;
  rsb_init(&t->rsb, tr.opts->rsb_size);
  if (tr.num_threads == tr.cap_threads) {
    tr.cap_threads = tr.cap_threads ? 2 * tr.cap_threads : 16;
    tr.threads = xrealloc(tr.threads, tr.cap_threads * sizeof *tr.threads);
  }
  tr.threads[tr.num_threads++] = t;
  if (p)
    thread_adopt(t, p);
  return t;
}

static void report_proc(struct proc *p);

static void thread_remove(struct thread *t) {
  for (size_t i = 0; i < tr.num_threads; i++) {
    if (tr.threads[i] == t) {
      tr.threads[i] = tr.threads[--tr.num_threads];
      break;
    }
  }
  struct proc *p = t->proc;
  free(t->rsb.slot);
  free(t);
  if (p && --p->live_threads == 0)
    report_proc(p);
}

/* ---- Reports ------------------------------------------------------------ */

static void record_underflow(struct proc *p, pid_t tid, uint64_t addr,
                             uint64_t target, bool foreign) {
  struct underflow_table *u = &p->underflows;
  if (u->count * 2 >= u->num_slots) { /* grow and rehash */
    size_t n = u->num_slots ? 2 * u->num_slots : 256;
    free(u->slots);
    u->slots = xcalloc(n, sizeof *u->slots);
    u->num_slots = n;
    for (size_t i = 0; i < u->count; i++) {
      size_t h = (size_t)(u->items[i].addr * 0x9e3779b97f4a7c15u) & (n - 1);
      while (u->slots[h])
        h = (h + 1) & (n - 1);
      u->slots[h] = (uint32_t)(i + 1);
    }
  }
  size_t mask = u->num_slots - 1;
  size_t h = (size_t)(addr * 0x9e3779b97f4a7c15u) & mask;
  for (; u->slots[h]; h = (h + 1) & mask) {
    if (u->items[u->slots[h] - 1].addr == addr) {
      u->items[u->slots[h] - 1].count++;
      return;
    }
  }
  if (u->count == u->capacity) {
    u->capacity = u->capacity ? 2 * u->capacity : 64;
    u->items = xrealloc(u->items, u->capacity * sizeof *u->items);
  }
  char where[4096 + 256];
  as_describe(&p->as, tid, addr, where, sizeof where);
  u->items[u->count] =
      (struct underflow){addr, target, 1, foreign, xstrdup(where)};
  u->slots[h] = (uint32_t)++u->count;
}

static void report_proc(struct proc *p) {
  FILE *out = tr.opts->out;
  if (p->reported)
    return;
  p->reported = true;
  if (tr.opts->list_underflows) {
    for (size_t i = 0; i < p->underflows.count; i++) {
      const struct underflow *u = &p->underflows.items[i];
      fprintf(out,
              "rsb-check: underflow at 0x%" PRIx64 " %s -> 0x%" PRIx64
              " count=%" PRIu64 "%s\n",
              u->addr, u->where, u->target, u->count,
              u->foreign ? " (not instrumented)" : "");
    }
  }
  if (p->has_status && WIFSIGNALED(p->status))
    fprintf(out, "rsb-check: pid %d %s: killed by signal %d (%s)\n", p->pid,
            p->exe, WTERMSIG(p->status), strsignal(WTERMSIG(p->status)));
  else if (p->has_status && tr.opts->verbose)
    fprintf(out, "rsb-check: pid %d %s: exited with status %d\n", p->pid,
            p->exe, WEXITSTATUS(p->status));
  fprintf(out, "rsb-check: pid %d %s: ", p->pid, p->exe);
  print_counts(out, &p->counts, false);
  free(p->decode_cache); /* a fork-heavy run must not keep one per process */
  p->decode_cache = NULL;
  add_counts(&tr.total, &p->counts);
}

/* ---- Applying one executed instruction ---------------------------------- */

static void note_refill(struct thread *t, uint64_t rip) {
  struct proc *p = t->proc;
  if (p->counts.refills == 0 || t->rsb.count < p->counts.min_rsb_at_refill)
    p->counts.min_rsb_at_refill = t->rsb.count;
  p->counts.refills++;
  if (!tr.opts->verbose)
    return;
  char where[4096 + 256];
  as_describe(&p->as, t->tid, rip, where, sizeof where);
  fprintf(tr.opts->out, "rsb-check: pid %d tid %d: refill at %s: model-rsb=%u",
          p->pid, t->tid, where, t->rsb.count);
  if (t->counter_valid)
    fprintf(tr.opts->out, " counter=0x%016" PRIx64 "%s", t->counter,
            t->counter << RSB_DEPTH_SHIFT ? " (not spent!)" : "");
  fputc('\n', tr.opts->out);
  t->counter_valid = false;
}

static void on_call(struct thread *t, const struct user_regs_struct *regs,
                    bool was_in_refill) {
  struct proc *p = t->proc;
  uint64_t ret_addr = 0;
  mem_read(t->tid, regs->rsp, &ret_addr, sizeof ret_addr);
  p->counts.calls++;
  /* The refill is 16 calls in a row, each to the next: count its first. */
  t->in_refill = as_in_refill_thunk(&p->as, t->tid, t->pending_rip);
  if (t->in_refill && !was_in_refill)
    note_refill(t, t->pending_rip);
  rsb_push(&t->rsb, ret_addr);
}

static void on_ret(struct thread *t, const struct user_regs_struct *regs) {
  struct proc *p = t->proc;
  uint64_t prediction, target = regs->rip;
  uint8_t byte = 0;
  p->counts.returns++;
  if (!rsb_pop(&t->rsb, &prediction)) {
    bool foreign = !as_in_instrumented_code(&p->as, t->tid, t->pending_rip);
    p->counts.underflows++;
    p->counts.foreign_underflows += foreign;
    record_underflow(p, t->tid, t->pending_rip, target, foreign);
  } else if (prediction == target) {
    p->counts.correct++;
  } else if (mem_read(t->tid, prediction, &byte, 1) == 1 && byte == INT3_BYTE) {
    p->counts.trap++;
  } else {
    p->counts.mispredicted++;
  }
}

/* A syscall that may have replaced code the symbol cache knows about. */
static bool remaps_code(uint64_t nr) {
  return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mremap ||
         nr == SYS_mprotect;
}

/* Applies the pending instruction, if the step really executed it. */
static void complete_step(struct thread *t,
                          const struct user_regs_struct *regs) {
  bool was_in_refill = t->in_refill;
  bool moved = regs->rsp != t->pending_rsp;
  t->in_refill = false;
  /* A rep-prefixed instruction traps after each iteration, and event and
   * signal stops execute nothing: count instructions that moved on. */
  if (moved || regs->rip != t->pending_rip)
    t->proc->counts.instructions++;
  switch (t->insn.kind) {
  case INSN_CALL:
    if (moved)
      on_call(t, regs, was_in_refill);
    break;
  case INSN_RET:
    if (moved)
      on_ret(t, regs);
    break;
  case INSN_FAR:
    if (moved)
      t->proc->counts.unknown++;
    break;
  case INSN_SYSCALL:
    if (remaps_code(regs->orig_rax)) {
      t->proc->as.stale = true;
      t->proc->code_generation++;
    }
    break;
  default:
    break;
  }
}

/* ---- Stepping ----------------------------------------------------------- */

/* Decodes the instruction at rip from the tracee's memory. Code of files
 * is cached: it changes only with a syscall that remaps it (or an exec),
 * which starts a new generation. Anonymous code (a JIT's) may be rewritten
 * by plain stores, so it is read every time. */
static void decode_at(struct thread *t, uint64_t rip) {
  struct proc *p = t->proc;
  const struct region *r = as_lookup(&p->as, t->tid, rip);
  struct decoded *d = NULL;
  if (r && r->image) {
    if (!p->decode_cache)
      p->decode_cache = xcalloc(DECODE_CACHE_SLOTS, sizeof *p->decode_cache);
    d = &p->decode_cache[(rip ^ rip >> 16) % DECODE_CACHE_SLOTS];
    if (d->rip == rip && d->generation == p->code_generation + 1) {
      t->insn = d->insn;
      return;
    }
  }
  uint8_t code[INSN_BYTES];
  size_t n = mem_read(t->tid, rip, code, sizeof code);
  x86_decode(code, n, &t->insn);
  /* generation + 1: a zeroed slot never matches. */
  if (d)
    *d = (struct decoded){rip, p->code_generation + 1, t->insn};
}

/* Decodes the instruction the next step will execute. */
static void decode_next(struct thread *t, const struct user_regs_struct *regs) {
  decode_at(t, regs->rip);
  t->pending = true;
  t->pending_rip = regs->rip;
  t->pending_rsp = regs->rsp;
  /* The counter a return is about to shift, in the runtime's thunks or in
   * the inline return check of an instrumented function: if this shift
   * spends it, the refill that follows reports it. */
  if (t->insn.kind == INSN_SHL_FS &&
      as_in_instrumented_code(&t->proc->as, t->tid, regs->rip)) {
    uint64_t addr = x86_fs_address(&t->insn, regs->rip, regs);
    t->counter_valid = mem_read(t->tid, addr, &t->counter, sizeof t->counter) ==
                       sizeof t->counter;
  }
}

/* Whether the process has a handler for sig (SigCgt in /proc/TID/status). */
static bool catches_signal(pid_t tid, int sig) {
  char file[64], line[256];
  unsigned long long mask = 0;
  snprintf(file, sizeof file, "/proc/%d/status", (int)tid);
  FILE *f = fopen(file, "re");
  if (!f)
    return false;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "SigCgt: %llx", &mask) == 1)
      break;
  fclose(f);
  return sig >= 1 && sig <= 64 && (mask >> (sig - 1) & 1);
}

/* Finishes the step the thread stopped after and starts the next one,
 * delivering sig to the program. */
static void step(struct thread *t, int sig) {
  struct user_regs_struct regs;
  if (ptrace(PTRACE_GETREGS, t->tid, NULL, &regs) < 0)
    return; /* killed meanwhile (another thread's exit_group): reaped later */
  if (t->pending)
    complete_step(t, &regs);
  t->pending = false;
  /* Entering a handler, the kernel stops at its first instruction before
   * running it: the instruction at %rip now is not the one the step runs. */
  if (!(sig && catches_signal(t->tid, sig)))
    decode_next(t, &regs);
  if (ptrace(PTRACE_SINGLESTEP, t->tid, NULL, (void *)(intptr_t)sig) < 0 &&
      errno != ESRCH) {
    fprintf(stderr, "rsb-check: cannot step %d: %s\n", t->tid, strerror(errno));
    exit(125);
  }
}

/* ---- Events ------------------------------------------------------------- */

static pid_t tgid_of(pid_t tid) {
  char file[64], line[256];
  int tgid = -1;
  snprintf(file, sizeof file, "/proc/%d/status", (int)tid);
  FILE *f = fopen(file, "re");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "Tgid: %d", &tgid) == 1)
      break;
  fclose(f);
  return tgid;
}

/* A new thread or process: a thread starts with an empty RSB, a process
 * (fork, vfork, clone without CLONE_THREAD) with a copy of its parent's. */
static void on_new_task(struct thread *parent, pid_t tid, int event) {
  struct proc *p = parent->proc;
  bool is_thread = event == PTRACE_EVENT_CLONE && tgid_of(tid) == p->pid;
  struct proc *np = is_thread ? p : proc_new(tid, p->exe);
  struct thread *t = thread_find(tid);
  bool was_orphan = t != NULL;
  if (t)
    thread_adopt(t, np);
  else
    t = thread_new(tid, np);
  if (!is_thread) {
    rsb_copy(&t->rsb, &parent->rsb);
    t->in_refill = parent->in_refill;
  }
  if (tr.opts->verbose)
    fprintf(tr.opts->out, "rsb-check: pid %d: new %s %d (from %d)\n", p->pid,
            is_thread ? "thread" : "process", tid, parent->tid);
  if (was_orphan) {
    int sig = t->orphan_signal == SIGSTOP ? 0 : t->orphan_signal;
    t->state = T_RUNNING;
    step(t, sig);
  } else {
    t->state = T_AWAIT_SIGSTOP;
  }
}

/* execve: a new program with an empty RSB and new mappings. If a thread
 * other than the leader called it, it has taken over the leader's tid. */
static void on_exec(struct thread *t) {
  unsigned long former = 0;
  struct proc *p = t->proc;
  ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &former);
  struct thread *old =
      (pid_t)former != t->tid ? thread_find((pid_t)former) : NULL;
  if (old)
    thread_remove(old);
  t->rsb.top = t->rsb.count = 0;
  t->in_refill = t->counter_valid = false;
  t->pending = false;
  as_clear(&p->as);
  p->code_generation++;
  free(p->exe);
  p->exe = exe_of(t->tid);
  if (tr.opts->verbose)
    fprintf(tr.opts->out, "rsb-check: pid %d: exec %s\n", p->pid, p->exe);
}

static void on_event(struct thread *t, int event) {
  unsigned long msg = 0;
  switch (event) {
  case PTRACE_EVENT_CLONE:
  case PTRACE_EVENT_FORK:
  case PTRACE_EVENT_VFORK:
    ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &msg);
    on_new_task(t, (pid_t)msg, event);
    break;
  case PTRACE_EVENT_EXEC:
    on_exec(t);
    break;
  default:
    break;
  }
  step(t, 0);
}

/* A SIGTRAP is the program's own only after an instruction that traps;
 * every other one comes from the single-step. */
static bool is_programs_sigtrap(const struct thread *t) {
  return t->pending && t->insn.kind == INSN_TRAP;
}

/* A stop for a signal the program should get: delivered unchanged, except
 * that a group-stop (no siginfo) is not a signal to deliver. */
static void on_signal(struct thread *t, int sig) {
  siginfo_t si;
  if ((sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) &&
      ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &si) < 0 && errno == EINVAL)
    sig = 0;
  step(t, sig);
}

static void on_stop(struct thread *t, pid_t tid, int status) {
  int sig = WSTOPSIG(status), event = (unsigned)status >> 16;
  if (!t) {
    /* A new task whose creator has not reported the event yet. */
    t = thread_new(tid, NULL);
    t->state = T_ORPHAN;
    t->orphan_signal = sig;
    return;
  }
  if (t->state == T_AWAIT_SIGSTOP && sig == SIGSTOP) {
    t->state = T_RUNNING;
    step(t, 0);
  } else if (sig == SIGTRAP && event) {
    on_event(t, event);
  } else if (sig == SIGTRAP && !is_programs_sigtrap(t)) {
    step(t, 0);
  } else {
    on_signal(t, sig);
  }
}

static void on_death(struct thread *t, pid_t tid, int status) {
  if (tid == tr.top)
    tr.top_status =
        WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  if (!t)
    return;
  if (t->proc && tid == t->proc->pid) {
    t->proc->status = status;
    t->proc->has_status = true;
  }
  thread_remove(t);
}

int trace_run(pid_t pid, const struct options *opts, struct counts *total) {
  int status;
  tr.opts = opts;
  tr.top = pid;
  tr.top_status = 125;
  ptrace(PTRACE_SETOPTIONS, pid, NULL,
         (void *)(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK |
                  PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXEC |
                  PTRACE_O_EXITKILL));
  struct thread *t = thread_new(pid, proc_new(pid, NULL));
  step(t, 0); /* swallows the SIGTRAP of the execve */
  for (;;) {
    pid_t tid = waitpid(-1, &status, __WALL);
    if (tid < 0 && errno == EINTR)
      continue;
    if (tid < 0)
      break; /* ECHILD: every traced task is gone */
    t = thread_find(tid);
    if (WIFSTOPPED(status))
      on_stop(t, tid, status);
    else if (WIFEXITED(status) || WIFSIGNALED(status))
      on_death(t, tid, status);
  }
  /* Processes whose threads we did not all see end (should not happen). */
  for (struct proc *p = tr.procs; p; p = p->next)
    report_proc(p);
  *total = tr.total;
  return tr.top_status;
}
