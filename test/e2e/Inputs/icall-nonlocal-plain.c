/* Built with plain clang-22: callees of icall-nonlocal.c that leave
 * __rsb_icall_r11's frame other than by returning through it (longjmp,
 * or a signal whose handler siglongjmps), or raise a signal whose
 * handler calls through the copy again. Each first calls back into
 * instrumented code, 40 deep. */
#include <setjmp.h>
#include <signal.h>

extern jmp_buf icall_jb;

int plain_longjmp(int (*cb)(int), int n) {
  cb(n);
  longjmp(icall_jb, 7);
}

int plain_raise(int (*cb)(int), int n, int sig) {
  int r = cb(n);
  raise(sig);
  return r + 1;
}

int plain_add(int a, int b) { return a + b; }

int plain_callback(int (*cb)(int), int n) { return cb(n) + 1; }
