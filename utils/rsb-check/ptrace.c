/*===- ptrace.c - The ptrace engine: single-steps the program ------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check --engine=ptrace. Every traced thread is single-stepped, about
 * 40,000 instructions a second: slow, but it runs the program on the real
 * CPU, with the instruction set extensions and the C library's choices of
 * the machine, where the QEMU engine (plugin.c) runs it emulated. Before each
 * step the instruction at %rip is decoded; after the step its effect is
 * applied to the thread's model (model.c): a call pushes the return address
 * it left at (%rsp), a ret pops the prediction and compares it with where
 * the ret went. Reading the result after the step makes every call form
 * (direct, indirect, through memory) and every ret form look the same.
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

#include "ptrace.h"

#include "alloc.h"
#include "decode.h"
#include "model.h"
#include "report.h"
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
  struct underflow_list *underflows;
  struct site_index underflow_index;
  struct loss_list *losses; /* the refill profile's */
  struct site_index loss_index;
  struct proc *next;
};

enum thread_state {
  T_RUNNING,
  T_AWAIT_SIGSTOP, /* created by an event; its first stop is still to come */
  T_ORPHAN,        /* stopped before its creator's event told us about it */
};

struct thread {
  pid_t tid;
  struct proc *proc; /* NULL while T_ORPHAN */
  enum thread_state state;
  int orphan_signal;
  struct model_thread model;
  /* The instruction the current step is executing. */
  bool pending;
  uint64_t pending_rip, pending_rsp;
  struct insn insn;
  /* --refill-profile: what its write to %fs memory means, and where. */
  enum counter_write write;
  uint64_t write_addr;
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

/* Reads len bytes of the tracee's memory at addr into buf; returns how many
 * bytes could be read. */
static size_t mem_read(pid_t tid, uint64_t addr, void *buf, size_t len) {
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
  p->underflows =
      xcalloc(1, sizeof *p->underflows +
                     UNDERFLOW_LIST_CAPACITY * sizeof(struct underflow));
  p->underflows->capacity = UNDERFLOW_LIST_CAPACITY;
  p->losses = xcalloc(1, sizeof *p->losses +
                             LOSS_LIST_CAPACITY * sizeof(struct loss_site));
  p->losses->capacity = LOSS_LIST_CAPACITY;
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
  model_thread_init(&t->model, tr.opts->rsb_size,
                    tr.opts->report.refill_profile);
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
  model_thread_free(&t->model);
  free(t);
  if (p && --p->live_threads == 0)
    report_proc(p);
}

/* ---- Reports ------------------------------------------------------------ */

static void record_underflow(struct proc *p, pid_t tid, uint64_t addr,
                             uint64_t target, bool foreign) {
  bool added;
  struct underflow *u =
      underflow_entry(p->underflows, &p->underflow_index, addr, &added);
  if (!u)
    return;
  if (added) {
    u->target = target;
    u->foreign = foreign;
    as_describe(&p->as, tid, addr, u->where, sizeof u->where);
  }
  u->count++;
}

static void report_proc(struct proc *p) {
  if (p->reported)
    return;
  p->reported = true;
  struct process_report r = {.pid = p->pid,
                             .exe = p->exe,
                             .end = END_EXITED,
                             .counts = &p->counts,
                             .underflows = p->underflows,
                             .losses = p->losses};
  if (!p->has_status) {
    r.end = END_UNKNOWN;
  } else if (WIFSIGNALED(p->status)) {
    r.end = END_SIGNALED;
    r.status = WTERMSIG(p->status);
  } else {
    r.status = WEXITSTATUS(p->status);
  }
  print_process_report(tr.opts->out, &r, &tr.opts->report);
  free(p->decode_cache); /* a fork-heavy run must not keep one per process */
  p->decode_cache = NULL;
  site_index_free(&p->underflow_index);
  site_index_free(&p->loss_index);
  add_counts(&tr.total, &p->counts);
}

/* ---- Applying one executed instruction ---------------------------------- */

/* The byte at addr is an int3: the prediction was one of a refill's traps. */
static bool tracee_is_trap(uint64_t addr, void *ctx) {
  const struct thread *t = ctx;
  uint8_t byte = 0;
  return mem_read(t->tid, addr, &byte, 1) == 1 && byte == INT3_BYTE;
}

static void note_refill(struct thread *t, uint64_t rip) {
  struct proc *p = t->proc;
  char where[UNDERFLOW_WHERE_SIZE];
  as_describe(&p->as, t->tid, rip, where, sizeof where);
  fprintf(tr.opts->out, "rsb-check: pid %d tid %d: refill at %s: model-rsb=%u",
          p->pid, t->tid, where, t->model.refill_occupancy);
  if (t->counter_valid)
    fprintf(tr.opts->out, " counter=0x%016" PRIx64 "%s", t->counter,
            t->counter << RSB_DEPTH_SHIFT ? " (not spent!)" : "");
  fputc('\n', tr.opts->out);
  t->counter_valid = false;
}

static void on_call(struct thread *t, const struct user_regs_struct *regs) {
  struct proc *p = t->proc;
  uint64_t ret_addr = 0;
  mem_read(t->tid, regs->rsp, &ret_addr, sizeof ret_addr);
  bool refill = as_in_refill_thunk(&p->as, t->tid, t->pending_rip);
  bool trap = as_in_trap_push(&p->as, t->tid, t->pending_rip);
  if (model_call(&t->model, &p->counts, t->pending_rip, ret_addr, refill,
                 trap) &&
      tr.opts->report.verbose)
    note_refill(t, t->pending_rip);
}

static void describe_tracee(uint64_t addr, char *buf, size_t size, void *ctx) {
  const struct thread *t = ctx;
  as_describe(&t->proc->as, t->tid, addr, buf, size);
}

static void on_ret(struct thread *t, const struct user_regs_struct *regs) {
  struct proc *p = t->proc;
  if (model_ret(&t->model, &p->counts, regs->rip, tracee_is_trap, t) ==
      RET_UNDERFLOW) {
    bool foreign = !as_in_instrumented_code(&p->as, t->tid, t->pending_rip);
    p->counts.foreign_underflows += foreign;
    record_underflow(p, t->tid, t->pending_rip, regs->rip, foreign);
  }
  if (t->model.profile)
    profile_settle(t->model.profile, p->losses, &p->loss_index, describe_tracee,
                   t);
}

/* --refill-profile: hands an executed write of rsb-stuff's code to the
 * thread's profile; a write other than a shift with the bytes it left in
 * memory. */
static void on_counter_write(struct thread *t) {
  struct model_thread *m = &t->model;
  uint64_t value = 0;
  if (counter_write_is_shift(t->write))
    profile_shift(m->profile, m->exact, t->write, t->pending_rip);
  else if (mem_read(t->tid, t->write_addr, &value, t->insn.size) ==
           t->insn.size)
    profile_store(m->profile, m->exact, t->write, t->pending_rip, t->write_addr,
                  t->insn.size, value);
}

/* A syscall that may have replaced code the symbol cache knows about. */
static bool remaps_code(uint64_t nr) {
  return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mremap ||
         nr == SYS_mprotect;
}

/* Applies the pending instruction, if the step really executed it. */
static void complete_step(struct thread *t,
                          const struct user_regs_struct *regs) {
  bool moved = regs->rsp != t->pending_rsp;
  /* A rep-prefixed instruction traps after each iteration, and event and
   * signal stops execute nothing: count instructions that moved on. */
  if (moved || regs->rip != t->pending_rip)
    t->proc->counts.instructions++;
  switch (t->insn.kind) {
  case INSN_CALL:
    if (moved)
      on_call(t, regs);
    break;
  case INSN_RET:
    if (moved)
      on_ret(t, regs);
    break;
  case INSN_FAR:
    if (moved)
      t->proc->counts.unknown++;
    break;
  case INSN_FS_WRITE:
    if (t->write != WRITE_NONE && regs->rip != t->pending_rip)
      on_counter_write(t);
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
  if (t->insn.kind != INSN_FS_WRITE)
    return;
  struct addr_space *as = &t->proc->as;
  uint64_t addr = x86_fs_address(&t->insn, regs->rip, regs);
  /* The counter a return is about to shift, in the runtime's thunks or in
   * the inline return check of an instrumented function: if this shift
   * spends it, the refill that follows reports it. */
  if (t->insn.op == FS_SHL && as_in_instrumented_code(as, t->tid, regs->rip))
    t->counter_valid = mem_read(t->tid, addr, &t->counter, sizeof t->counter) ==
                       sizeof t->counter;
  t->write =
      t->model.profile
          ? counter_write_of(&t->insn, as_code_role(as, t->tid, regs->rip))
          : WRITE_NONE;
  t->write_addr = addr;
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
    exit(EXIT_INTERNAL);
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
    model_thread_copy(&t->model, &parent->model);
  }
  if (tr.opts->report.verbose)
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
  model_thread_clear(&t->model);
  t->counter_valid = false;
  t->pending = false;
  as_clear(&p->as);
  p->code_generation++;
  free(p->exe);
  p->exe = exe_of(t->tid);
  if (tr.opts->report.verbose)
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
  /* The exit syscall the thread was stepping ran: QEMU counts it too. */
  if (t->proc && t->pending && t->insn.kind == INSN_SYSCALL)
    t->proc->counts.instructions++;
  if (t->proc && tid == t->proc->pid) {
    t->proc->status = status;
    t->proc->has_status = true;
  }
  thread_remove(t);
}

/* Forks PROGRAM, traced from its first instruction: it stops with a
 * SIGTRAP right after execve. Returns its pid, or exits if it could not be
 * started. */
static pid_t start_program(char **argv) {
  int status;
  pid_t pid = fork();
  if (pid < 0) {
    perror("rsb-check: fork");
    exit(EXIT_INTERNAL);
  }
  if (pid == 0) {
    if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0) {
      perror("rsb-check: PTRACE_TRACEME");
      _exit(EXIT_INTERNAL);
    }
    execvp(argv[0], argv);
    fprintf(stderr, "rsb-check: cannot execute %s: %s\n", argv[0],
            strerror(errno));
    _exit(errno == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
  }
  while (waitpid(pid, &status, __WALL) < 0) {
    if (errno != EINTR) {
      perror("rsb-check: waitpid");
      exit(EXIT_INTERNAL);
    }
  }
  if (WIFEXITED(status))
    exit(WEXITSTATUS(status)); /* execvp failed and said why */
  if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP) {
    fprintf(stderr, "rsb-check: %s did not start under ptrace\n", argv[0]);
    exit(EXIT_INTERNAL);
  }
  return pid;
}

int ptrace_run(char **argv, const struct options *opts, struct counts *total) {
  int status;
  pid_t pid = start_program(argv);
  ignore_terminal_signals();
  tr.opts = opts;
  tr.top = pid;
  tr.top_status = EXIT_INTERNAL;
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
