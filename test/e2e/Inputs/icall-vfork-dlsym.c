/* The addresses of vfork and getcontext as the C library defines them,
 * found with dlsym(RTLD_NEXT)
 * (test/e2e/shared-indirect-call-returns-twice-canonical-plt.test): in a
 * non-PIE executable that also takes their addresses in code built without
 * -fPIC (icall-vfork-canonical.c), the program's own name for each is its
 * canonical PLT entry instead, another address. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <ucontext.h>
#include <unistd.h>

void take_pointers(pid_t (**vf)(void), int (**gc)(ucontext_t *)) {
  *vf = (pid_t (*)(void))dlsym(RTLD_NEXT, "vfork");
  *gc = (int (*)(ucontext_t *))dlsym(RTLD_NEXT, "getcontext");
}
