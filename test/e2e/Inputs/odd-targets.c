/* Indirect calls to targets whose preceding bytes the mark check must not
 * read: code at the start of a page whose page before is unmapped, code
 * whose target bits 4-9 are clear, the vsyscall page's execute-only entries
 * (where the kernel maps them), and ordinary code in the same page. Each
 * call must behave as in a plain build. A call into the kernel half faults
 * in both builds (in the instrumented one at the check's read), and the
 * handler reports it the same way. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

typedef long (*long_fn)(void *);

/* The page offsets of the code we place: a page start (the page before is
 * unmapped), bit 4 alone, bits 4-9 clear but above 16, an end of page. */
static const unsigned offsets[] = {0x000, 0x010, 0x400, 0xc00, 0xff0};

static sigjmp_buf fault_exit;

static void on_fault(int sig) { siglongjmp(fault_exit, sig); }

__attribute__((noinline)) static long call(long_fn f, void *arg) {
  return f(arg) + 1;
}

/* `mov $value, %eax; ret` at the given address. */
static void put_return(unsigned char *at, int value) {
  at[0] = 0xb8;
  memcpy(at + 1, &value, sizeof value);
  at[5] = 0xc3;
}

static int placed_code(void) {
  long page = sysconf(_SC_PAGESIZE);
  unsigned char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return perror("mmap"), 1;
  unsigned char *code = map + page;
  memset(code, 0xcc, page);
  for (unsigned i = 0; i < sizeof offsets / sizeof *offsets; ++i)
    put_return(code + offsets[i], 100 + i);
  if (mprotect(map, page, PROT_NONE) || mprotect(code, page, PROT_READ | PROT_EXEC))
    return perror("mprotect"), 1;
  for (unsigned i = 0; i < sizeof offsets / sizeof *offsets; ++i)
    printf("code at page offset %#x: %ld\n", offsets[i],
           call((long_fn)(code + offsets[i]), NULL));
  return 0;
}

static int vsyscall_mapped(void) {
  char line[256];
  int found = 0;
  FILE *maps = fopen("/proc/self/maps", "r");
  while (maps && fgets(line, sizeof line, maps))
    found |= strstr(line, "[vsyscall]") != NULL;
  if (maps)
    fclose(maps);
  return found;
}

/* The legacy entries: gettimeofday, time and getcpu. */
static void vsyscall_entries(void) {
  int ok = 1;
  if (vsyscall_mapped()) {
    struct timeval tv;
    unsigned cpu;
    ok &= call((long_fn)0xffffffffff600000UL, &tv) == 1;
    ok &= call((long_fn)0xffffffffff600400UL, NULL) > 1;
    ok &= call((long_fn)0xffffffffff600800UL, &cpu) == 1;
  }
  printf("vsyscall entries: %s\n", ok ? "ok" : "failed");
}

static void kernel_half(void) {
  struct sigaction fault = {.sa_handler = on_fault};
  sigemptyset(&fault.sa_mask);
  sigaction(SIGSEGV, &fault, NULL);
  int sig = sigsetjmp(fault_exit, 1);
  if (!sig)
    call((long_fn)0xffff800000000010UL, NULL);
  printf("kernel-half target: %s\n", sig == SIGSEGV ? "SIGSEGV" : "?");
  signal(SIGSEGV, SIG_DFL);
}

int main(void) {
  if (placed_code())
    return 1;
  vsyscall_entries();
  kernel_half();
  return 0;
}
