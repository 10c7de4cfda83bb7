/* The init of the kernel test (utils/linux/run): runs a workload of deep
 * call chains through system calls and prints the kernel's call depth
 * tracking counters (CALL_THUNKS_DEBUG) after boot and after each phase,
 * then reboots, which ends QEMU (-no-reboot).
 *
 * Lines it prints, read by utils/linux/compare:
 *   rsb-kernel: <phase> C=<calls> R=<returns> S=<stuffs> X=<ctxsw>
 * with the counters summed over CPUs: "boot" is everything up to init,
 * every other phase is the difference it made.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct counters {
  unsigned long long calls, returns, stuffs, ctxsw;
};

static int read_cpu(int cpu, struct counters *c) {
  char path[64], buf[256];
  snprintf(path, sizeof path, "/sys/kernel/debug/callthunks/cpu%d", cpu);
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0)
    return 0;
  buf[n] = 0;
  struct counters one;
  if (sscanf(buf, " C: %llu R: %llu S: %llu X: %llu", &one.calls,
             &one.returns, &one.stuffs, &one.ctxsw) != 4)
    return 0;
  c->calls += one.calls;
  c->returns += one.returns;
  c->stuffs += one.stuffs;
  c->ctxsw += one.ctxsw;
  return 1;
}

static struct counters read_counters(void) {
  struct counters c = {0};
  for (int cpu = 0; read_cpu(cpu, &c); cpu++)
    ;
  return c;
}

static void report(const char *phase, struct counters *last) {
  struct counters now = read_counters();
  printf("rsb-kernel: %s C=%llu R=%llu S=%llu X=%llu\n", phase,
         now.calls - last->calls, now.returns - last->returns,
         now.stuffs - last->stuffs, now.ctxsw - last->ctxsw);
  fflush(stdout);
  *last = read_counters(); /* not counting the report itself */
}

static void getppid_loop(void) {
  for (int i = 0; i < 100000; i++)
    syscall(SYS_getppid);
}

/* procfs, seq_file and vsnprintf: the deepest common kernel paths. */
static void proc_reads(void) {
  char buf[4096];
  for (int i = 0; i < 2000; i++) {
    int fd = open("/proc/self/status", O_RDONLY);
    while (read(fd, buf, sizeof buf) > 0)
      ;
    close(fd);
  }
}

static void path_walks(void) {
  struct stat st;
  for (int i = 0; i < 5000; i++)
    stat("/sys/kernel/debug/callthunks/cpu0", &st);
}

static void pipe_traffic(void) {
  int p[2];
  char buf[512] = {0};
  if (pipe(p))
    return;
  for (int i = 0; i < 20000; i++) {
    if (write(p[1], buf, sizeof buf) < 0 || read(p[0], buf, sizeof buf) < 0)
      break;
  }
  close(p[0]);
  close(p[1]);
}

static void page_faults(void) {
  for (int i = 0; i < 500; i++) {
    char *m = mmap(NULL, 16 * 4096, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
      return;
    for (int page = 0; page < 16; page++)
      m[page * 4096] = 1;
    munmap(m, 16 * 4096);
  }
}

/* Loads the test module (its init runs a 40-deep chain), reads its debugfs
 * file, which runs the chain again, and unloads it. */
static int load_module(void) {
  int fd = open("/rsbtest.ko", O_RDONLY);
  if (fd < 0)
    return 0;
  int ok = syscall(SYS_finit_module, fd, "", 0) == 0;
  close(fd);
  return ok;
}

static void module_calls(void) {
  char buf[32];
  for (int i = 0; i < 2000; i++) {
    int fd = open("/sys/kernel/debug/rsbtest", O_RDONLY);
    if (fd < 0)
      return;
    while (read(fd, buf, sizeof buf) > 0)
      ;
    close(fd);
  }
}

static void forks(void) {
  for (int i = 0; i < 200; i++) {
    pid_t pid = fork();
    if (pid == 0)
      _exit(0);
    if (pid > 0)
      waitpid(pid, NULL, 0);
  }
}

int main(void) {
  mount("proc", "/proc", "proc", 0, NULL);
  mount("sysfs", "/sys", "sysfs", 0, NULL);
  mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
  struct counters last = {0};
  report("boot", &last);
  getppid_loop();
  report("getppid", &last);
  proc_reads();
  report("proc-read", &last);
  path_walks();
  report("stat", &last);
  pipe_traffic();
  report("pipe", &last);
  page_faults();
  report("page-fault", &last);
  forks();
  report("fork", &last);
  if (load_module()) {
    report("module-load", &last);
    module_calls();
    report("module-calls", &last);
    syscall(SYS_delete_module, "rsbtest", O_NONBLOCK);
    report("module-unload", &last);
  } else {
    printf("rsb-kernel: module not loaded\n");
  }
  printf("rsb-kernel: done\n");
  fflush(stdout);
  reboot(RB_AUTOBOOT);
  return 0;
}
