/* Calls through __rsb_icall_r11 (test/e2e/shared-indirect-call-nonlocal.test)
 * that do not simply return: a plain callee that longjmps past the copy's
 * frame to a setjmp in the site's caller; one that raises a signal whose
 * handler calls through the copy itself; one that raises a signal whose
 * handler siglongjmps past the copy's frame; and four threads calling
 * through it at once. The site functions call nothing that returns twice
 * (their callers do), so the copy makes their calls. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

jmp_buf icall_jb;
static sigjmp_buf icall_sjb;

int plain_longjmp(int (*cb)(int), int n);
int plain_raise(int (*cb)(int), int n, int sig);
int plain_add(int a, int b);
int plain_callback(int (*cb)(int), int n);

static int (*volatile p_longjmp)(int (*)(int), int);
static int (*volatile p_raise)(int (*)(int), int, int);
static int (*volatile p_add)(int, int);
static int (*volatile p_callback)(int (*)(int), int);
static int (*volatile p_deep)(int);
static int (*volatile p_inst_add)(int, int);

__attribute__((noinline)) static int deep(int n) {
  int r = n > 0 ? deep(n - 1) : 0;
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

__attribute__((noinline)) static int inst_add(int a, int b) { return a + b; }

__attribute__((noinline)) static int site_longjmp(int n) {
  return p_longjmp(deep, n) + 1;
}

__attribute__((noinline)) static int caller_longjmp(int n) {
  int v = setjmp(icall_jb);
  if (v == 0)
    return site_longjmp(n);
  return deep(n) + v;
}

static volatile int handled;

static void on_usr1(int sig) {
  handled += p_callback(p_deep, 40) + p_add(sig, 1) + p_inst_add(1, 2);
}

static void on_usr2(int sig) {
  (void)sig;
  siglongjmp(icall_sjb, 3);
}

__attribute__((noinline)) static int site_raise(int n, int sig) {
  return p_raise(deep, n, sig) + 1;
}

__attribute__((noinline)) static int caller_siglongjmp(int n) {
  int v = sigsetjmp(icall_sjb, 1);
  if (v == 0)
    return site_raise(n, SIGUSR2);
  return deep(n) + v;
}

__attribute__((noinline)) static long work(int id) {
  long s = 0;
  for (int i = 0; i < 300; i++) {
    s += p_add(i, id);
    s += p_inst_add(i, id);
    s += p_callback(p_deep, i % 40 + 1);
  }
  return s;
}

static void *thread_main(void *arg) { return (void *)work((int)(long)arg); }

int main(void) {
  p_longjmp = plain_longjmp;
  p_raise = plain_raise;
  p_add = plain_add;
  p_callback = plain_callback;
  p_deep = deep;
  p_inst_add = inst_add;
  signal(SIGUSR1, on_usr1);
  signal(SIGUSR2, on_usr2);
  printf("longjmp: %d\n", caller_longjmp(40));
  int r = site_raise(40, SIGUSR1);
  printf("raise: %d handled=%d\n", r, handled);
  printf("siglongjmp: %d\n", caller_siglongjmp(40));
  pthread_t t[4];
  for (long i = 0; i < 4; i++)
    pthread_create(&t[i], 0, thread_main, (void *)i);
  long total = 0, expected = 0;
  for (int i = 0; i < 4; i++) {
    void *ret;
    pthread_join(t[i], &ret);
    total += (long)ret;
    expected += work(i);
  }
  printf("threads: %s\n", total == expected ? "ok" : "wrong");
  return 0;
}
