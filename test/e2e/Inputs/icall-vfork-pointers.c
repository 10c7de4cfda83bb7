/* The addresses of vfork and getcontext, taken in a file of their own
 * (test/e2e/shared-indirect-call-returns-twice.test), so that the module
 * calling them through pointers cannot see it. */
#include <ucontext.h>
#include <unistd.h>

void take_pointers(pid_t (**vf)(void), int (**gc)(ucontext_t *)) {
  *vf = vfork;
  *gc = getcontext;
}
