/* Takes the addresses of vfork and getcontext in code built without
 * -fPIC: linked into a non-PIE executable, `movl $getcontext, %eax` makes
 * the link give each a canonical PLT entry in the executable, which every
 * reference by name then resolves to
 * (test/e2e/shared-indirect-call-returns-twice-canonical-plt.test). */
#include <ucontext.h>
#include <unistd.h>

void *get_vfork(void) { return (void *)vfork; }
void *get_getcontext(void) { return (void *)getcontext; }
