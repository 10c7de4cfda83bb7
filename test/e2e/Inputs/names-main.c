/* Prints what dladdr and backtrace_symbols call the program's and its
   library's functions, by address and by return address: the names of the
   plain build. Linked with -rdynamic, so that the program's own functions
   have dynamic symbols. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lib_outer(void (*callback)(void));
void lib_report(void);

void print_name(const char *what, void *address) {
  Dl_info info;
  const char *name = "?";
  if (dladdr(address, &info) && info.dli_sname)
    name = info.dli_sname;
  printf("%s: %s\n", what, name);
}

/* The symbol in backtrace_symbols' "file(symbol+offset) [address]". */
static void print_frame(int i, void *pc, const char *line) {
  const char *open = strchr(line, '(');
  size_t length = open ? strcspn(open + 1, "+)") : 0;
  printf("frame %d: dladdr ", i);
  fflush(stdout);
  print_name("", pc);
  printf("frame %d: backtrace_symbols %.*s\n", i, (int)length,
         open ? open + 1 : "");
}

__attribute__((noinline)) void show(void) {
  void *pcs[5];
  int n = backtrace(pcs, 5);
  char **lines = backtrace_symbols(pcs, n);
  for (int i = 0; i < n; ++i)
    print_frame(i, pcs[i], lines[i]);
  free(lines);
}

__attribute__((noinline)) void callback(void) {
  show();
  __asm__ volatile("");
}

int main(void) {
  print_name("show", (void *)show);
  print_name("callback", (void *)callback);
  print_name("main", (void *)main);
  lib_report();
  lib_outer(callback);
  return 0;
}
