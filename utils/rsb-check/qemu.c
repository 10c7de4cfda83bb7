/*===- qemu.c - The QEMU engine: runs the program under the plugin --------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check's default engine. The model itself runs inside qemu-x86_64, as
 * a TCG plugin (plugin.c); this side starts the program under it and
 * collects what every process left in its record (record.c):
 *
 *  - a run directory for the records, and the report's descriptor handed
 *    down to every process (a duplicate above the low numbers, so that the
 *    report shares the file position of rsb-check's own output);
 *  - the program itself, started as the kernel would start it (PATH, `#!`
 *    scripts: launch.c) but under QEMU with the plugin;
 *  - then it waits for every descendant, not just the program: rsb-check
 *    is a child subreaper, so orphans of the program are reparented to it,
 *    and the run ends when the last process of the tree is gone;
 *  - processes that exited printed their own report; the others (killed
 *    by a signal, or exec'd into a program the model cannot run) are
 *    reported here from their records, and the total is printed.
 *
 *===----------------------------------------------------------------------===*/

#include "qemu.h"

#include "alloc.h"
#include "launch.h"
#include "record.h"
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define QEMU_NAME "qemu-x86_64"
#define PLUGIN_NAME "rsb-check-qemu.so"
/* The report's descriptor in the programs: above what shells and
 * programs use for their own redirections. */
#define OUTPUT_FD_MIN 200

struct run {
  const struct options *opts;
  char qemu[PATH_MAX], plugin[PATH_MAX], dir[PATH_MAX];
  int out_fd;
  struct stat out_stat;
  pid_t self, top;
  int top_status;
};

static __attribute__((noreturn)) void die(const char *fmt, const char *arg) {
  fprintf(stderr, "rsb-check: ");
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
  exit(EXIT_INTERNAL);
}

/* ---- Finding QEMU and the plugin ---------------------------------------- */

static bool executable(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The directory of rsb-check's own files: ../lib/rsb-stuff in the build
 * tree, the library directory the build configured when installed. */
static void find_lib_dir(char *out) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n < 0)
    die("cannot find its own executable: %s", strerror(errno));
  self[n] = '\0';
  *strrchr(self, '/') = '\0';
  static const char *const dirs[] = {"../lib/rsb-stuff",
                                     RSB_CHECK_INSTALLED_LIBDIR "/rsb-stuff"};
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s/%s", self, dirs[i], PLUGIN_NAME);
    if (realpath(path, out)) {
      *strrchr(out, '/') = '\0';
      return;
    }
  }
  die("its QEMU plugin %s is not installed beside it", PLUGIN_NAME);
}

/* The plugin, and the QEMU it was built for (utils/build-qemu), beside it
 * unless $RSB_CHECK_QEMU names another. */
static void find_engine(struct run *run) {
  char dir[PATH_MAX];
  find_lib_dir(dir);
  snprintf(run->plugin, sizeof run->plugin, "%s/%s", dir, PLUGIN_NAME);
  const char *qemu = getenv("RSB_CHECK_QEMU");
  char path[PATH_MAX * 2];
  if (!qemu || !*qemu) {
    snprintf(path, sizeof path, "%s/%s", dir, QEMU_NAME);
    qemu = path;
  }
  if (!realpath(qemu, run->qemu) || !executable(run->qemu))
    die("%s: no such QEMU: rsb-check's is built by utils/build-qemu, or run "
        "the slow engine with --engine=ptrace",
        qemu);
}

/* ---- Starting the program ----------------------------------------------- */

/* The -plugin argument; QEMU splits it at commas, which no path may hold
 * (checked in qemu_run). */
static char *plugin_spec(const struct run *run) {
  char *spec = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&spec, &len);
  if (!f)
    die("%s", strerror(errno));
  fprintf(f,
          "%s,self=%s,dir=%s,out=%d:%ju:%ju,supervisor=%d,rsb-size=%u,"
          "verbose=%s,list-underflows=%s,refill-profile=%s,qemu=%s",
          run->plugin, run->plugin, run->dir, run->out_fd,
          (uintmax_t)run->out_stat.st_dev, (uintmax_t)run->out_stat.st_ino,
          (int)run->self, run->opts->rsb_size,
          run->opts->report.verbose ? "on" : "off",
          run->opts->report.list_underflows ? "on" : "off",
          run->opts->report.refill_profile ? "on" : "off", run->qemu);
  fclose(f);
  return spec;
}

/* Tries path for execvp(); returns its errno, or does not return. */
static int try_exec(const struct run *run, const char *spec, const char *path,
                    char **argv) {
  struct launch_plan plan;
  char why[PATH_MAX + 128];
  int err;
  switch (launch_prepare(run->qemu, spec, path, argv, environ, &plan, &err, why,
                         sizeof why)) {
  case LAUNCH_OK:
    execve(plan.argv[0], plan.argv, plan.envp);
    fprintf(stderr, "rsb-check: cannot execute %s: %s\n", plan.argv[0],
            strerror(errno));
    _exit(EXIT_INTERNAL);
  case LAUNCH_FOREIGN:
    fprintf(stderr, "rsb-check: %s: the model cannot run it\n", why);
    _exit(EXIT_CANNOT_RUN);
  case LAUNCH_REFUSED:
    break;
  }
  return err;
}

/* In the child: execvp(argv[0]) under the model. */
static __attribute__((noreturn)) void exec_program(const struct run *run,
                                                   char **argv) {
  char *spec = plugin_spec(run), path[PATH_MAX * 2];
  int err = ENOENT;
  if (strchr(argv[0], '/')) {
    err = try_exec(run, spec, argv[0], argv);
  } else {
    const char *dirs = getenv("PATH");
    bool denied = false;
    if (!dirs || !*dirs)
      dirs = "/bin:/usr/bin";
    for (const char *p = dirs;; p++) {
      const char *end = strchrnul(p, ':');
      snprintf(path, sizeof path, "%.*s%s%s", (int)(end - p), p,
               end > p ? "/" : "", argv[0]);
      err = try_exec(run, spec, path, argv);
      denied |= err == EACCES;
      if (err != ENOENT && err != ENOTDIR && err != EACCES)
        break;
      if (!*end) {
        err = denied ? EACCES : ENOENT;
        break;
      }
      p = end;
    }
  }
  fprintf(stderr, "rsb-check: cannot execute %s: %s\n", argv[0], strerror(err));
  _exit(err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN);
}

/* ---- Collecting the records --------------------------------------------- */

static int compare_names(const void *a, const void *b) {
  const char *x = *(const char *const *)a, *y = *(const char *const *)b;
  long px = atol(x), py = atol(y);
  if (px != py)
    return px < py ? -1 : 1;
  return strcmp(x, y);
}

/* The record files of the run, in pid order. */
static char **list_records(const char *dir, size_t *count) {
  DIR *d = opendir(dir);
  char **names = NULL;
  size_t n = 0;
  if (!d)
    die("cannot read its run directory: %s", strerror(errno));
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.')
      continue;
    names = xrealloc(names, (n + 1) * sizeof *names);
    names[n++] = xstrdup(e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, compare_names);
  *count = n;
  return names;
}

/* A process that did not report itself: how it ended. */
static void report_record(const struct run *run, struct record *rec,
                          const struct counts *counts) {
  struct process_report r = {.pid = rec->pid,
                             .exe = rec->exe,
                             .end = END_UNKNOWN,
                             .counts = counts,
                             .underflows = record_underflows(rec),
                             .losses = record_losses(rec)};
  if (rec->pid == run->top && WIFSIGNALED(run->top_status)) {
    r.end = END_SIGNALED;
    r.status = WTERMSIG(run->top_status);
  } else if (rec->pid == run->top || rec->exited) {
    r.end = END_EXITED;
    r.status =
        rec->pid == run->top ? WEXITSTATUS(run->top_status) : rec->exit_status;
  }
  FILE *out = run->opts->out;
  if (rec->unfollowed)
    fprintf(out, "rsb-check: pid %d %s: exec'd %s: it ran without the model\n",
            rec->pid, rec->exe, rec->unfollowed_exe);
  print_process_report(out, &r, &run->opts->report);
}

static void collect(const struct run *run, struct counts *total) {
  size_t count;
  char **names = list_records(run->dir, &count);
  for (size_t i = 0; i < count; i++) {
    char path[PATH_MAX * 2];
    snprintf(path, sizeof path, "%s/%s", run->dir, names[i]);
    struct record *rec = record_open(path, false);
    if (!rec) {
      fprintf(run->opts->out,
              "rsb-check: a process left an unreadable record %s\n", path);
      total->unmodelled++;
    } else {
      struct counts counts;
      record_counts(rec, &counts);
      if (rec->state != RECORD_REPORTED)
        report_record(run, rec, &counts);
      add_counts(total, &counts);
      record_close(rec);
    }
    unlink(path);
    free(names[i]);
  }
  free(names);
}

/* ---- The run ------------------------------------------------------------ */

static void make_run_dir(struct run *run) {
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp)
    tmp = "/tmp";
  snprintf(run->dir, sizeof run->dir, "%s/rsb-check.XXXXXX", tmp);
  if (!mkdtemp(run->dir))
    die("cannot create its run directory: %s", strerror(errno));
}

static volatile pid_t program_pid;

/* SIGTERM and SIGHUP to rsb-check (timeout(1), a closed terminal) are for
 * the program, as for a shell's foreground command: passed on, while
 * rsb-check waits to report. */
static void pass_on(int sig) { kill(program_pid, sig); }

static void pass_on_termination(pid_t program) {
  struct sigaction sa = {.sa_handler = pass_on, .sa_flags = SA_RESTART};
  program_pid = program;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
}

/* Waits for every process of the tree; the program's status as a shell
 * reports it. */
static void wait_all(struct run *run) {
  int status;
  for (;;) {
    pid_t pid = waitpid(-1, &status, __WALL);
    if (pid < 0 && errno == EINTR)
      continue;
    if (pid < 0)
      break; /* ECHILD */
    if (pid == run->top)
      run->top_status = status;
  }
}

int qemu_run(char **argv, const struct options *opts, struct counts *total) {
  struct run run = {.opts = opts, .self = getpid()};
  find_engine(&run);
  make_run_dir(&run);
  if (strchr(run.qemu, ',') || strchr(run.plugin, ',') || strchr(run.dir, ','))
    die("QEMU cannot take paths with commas: %s", run.dir);
  fflush(opts->out);
  run.out_fd = fcntl(fileno(opts->out), F_DUPFD, OUTPUT_FD_MIN);
  if (run.out_fd < 0 || fstat(run.out_fd, &run.out_stat) < 0)
    die("cannot pass its output on: %s", strerror(errno));
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
    die("cannot wait for the program's orphans: %s", strerror(errno));
  run.top = fork();
  if (run.top < 0)
    die("fork: %s", strerror(errno));
  if (run.top == 0) {
    /* If rsb-check dies, so does the program (ptrace's EXITKILL). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    exec_program(&run, argv);
  }
  ignore_terminal_signals();
  pass_on_termination(run.top);
  wait_all(&run); /* keeping out_fd open: the plugin may reach it in /proc */
  collect(&run, total);
  rmdir(run.dir);
  if (WIFSIGNALED(run.top_status))
    return 128 + WTERMSIG(run.top_status);
  return WEXITSTATUS(run.top_status);
}
