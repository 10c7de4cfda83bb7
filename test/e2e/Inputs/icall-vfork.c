/* vfork and getcontext called through a function pointer
 * (test/e2e/shared-indirect-call-returns-twice.test): the call site cannot
 * know that the target returns twice. Through __rsb_icall_r11 the target
 * would return (again) into the copy's frame, below the site's stack
 * pointer, which the vforked child, or the code run before setcontext, has
 * reused by then. The calls sit in blocks that __builtin_expect makes cold.
 * With -DPOINTERS_ELSEWHERE the addresses come from another file
 * (icall-vfork-pointers.c), and this module does not know it takes them. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

static pid_t (*volatile p_vfork)(void);
static int (*volatile p_getcontext)(ucontext_t *);
static volatile int use_pointer = 1;

__attribute__((noinline)) static int spawn_true(void) {
  pid_t pid;
  if (__builtin_expect(use_pointer, 0))
    pid = p_vfork();
  else
    pid = fork();
  if (pid == 0) {
    execl("/bin/true", "true", (char *)0);
    _exit(127);
  }
  int status;
  if (waitpid(pid, &status, 0) != pid)
    return -1;
  return WEXITSTATUS(status);
}

static ucontext_t context;
static volatile int resumed;

__attribute__((noinline)) static void overwrite_stack(void) {
  volatile char buf[512];
  for (int i = 0; i < 512; i++)
    buf[i] = (char)0xa5;
}

__attribute__((noinline)) static void resume_twice(void) {
  resumed = 0;
  if (__builtin_expect(use_pointer, 0))
    p_getcontext(&context);
  if (++resumed < 3) {
    overwrite_stack();
    setcontext(&context);
  }
}

#ifdef POINTERS_ELSEWHERE
void take_pointers(pid_t (**vf)(void), int (**gc)(ucontext_t *));
#else
static void take_pointers(pid_t (**vf)(void), int (**gc)(ucontext_t *)) {
  *vf = vfork;
  *gc = getcontext;
}
#endif

int main(int argc, char **argv) {
  pid_t (*vf)(void);
  int (*gc)(ucontext_t *);
  take_pointers(&vf, &gc);
  p_vfork = vf;
  p_getcontext = gc;
  if (argc > 1 && !strcmp(argv[1], "getcontext")) {
    resume_twice();
    printf("getcontext returned: %d times\n", resumed);
  } else {
    printf("vfork child status: %d\n", spawn_true());
  }
  return 0;
}
