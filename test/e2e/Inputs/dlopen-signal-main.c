// Loads the shared object named on the command line with dlopen() and
// reports, for the handlers it installed, which module the handler the
// kernel has belongs to (a raw rt_sigaction query: no libc wrapper in
// between), and whether the handlers run. Built with or without rsb-stuff;
// with -DMAIN_INSTALLS, main installs a handler of its own first (an
// instrumented executable then links the runtime's sigaction).
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

// The kernel's struct sigaction on x86-64.
struct kernel_sigaction {
  void *handler;
  unsigned long flags;
  void *restorer;
  unsigned long mask;
};

static const char *module_of(void *address) {
  Dl_info info;
  if (!dladdr(address, &info) || !info.dli_fname)
    return "?";
  const char *slash = strrchr(info.dli_fname, '/');
  return slash ? slash + 1 : info.dli_fname;
}

static void report(int sig, const char *name, void *user_handler) {
  struct kernel_sigaction old;
  if (syscall(SYS_rt_sigaction, sig, NULL, &old, sizeof old.mask) != 0) {
    printf("%s: rt_sigaction failed\n", name);
    return;
  }
  printf("%s: kernel handler %s in %s\n", name,
         old.handler == user_handler ? "is the user's" : "is not the user's",
         old.handler == user_handler ? "-" : module_of(old.handler));
}

#ifdef MAIN_INSTALLS
static void on_hup(int sig) { (void)sig; }
#endif

int main(int argc, char **argv) {
#ifdef MAIN_INSTALLS
  signal(SIGHUP, on_hup);
#endif
  void *lib = dlopen(argv[argc - 1], RTLD_NOW);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  report(SIGUSR1, "SIGUSR1", dlsym(lib, "lib_on_usr1"));
  report(SIGUSR2, "SIGUSR2", dlsym(lib, "lib_on_usr2"));
  raise(SIGUSR1);
  raise(SIGUSR2);
  printf("handled: SIGUSR1=%d SIGUSR2=%d\n", *(int *)dlsym(lib, "lib_handled_usr1"),
         *(int *)dlsym(lib, "lib_handled_usr2"));
  printf("reports handlers: %s\n",
         ((int (*)(void))dlsym(lib, "lib_reports_handlers"))() ? "yes" : "no");
  return 0;
}
