/* A shared library whose functions dladdr and backtrace_symbols must name
   as in the plain build (names-main.c). */
#include <stdio.h>

void print_name(const char *what, void *address);

__attribute__((noinline)) void lib_inner(void (*callback)(void)) {
  callback();
  __asm__ volatile("");
}

__attribute__((noinline)) void lib_outer(void (*callback)(void)) {
  lib_inner(callback);
  __asm__ volatile("");
}

/* A tail call to another object's function: its tail alias is exported. */
void lib_tail(void *address) { print_name("lib_tail", address); }

void lib_report(void) {
  print_name("lib_inner", (void *)lib_inner);
  print_name("lib_outer", (void *)lib_outer);
  lib_tail((void *)lib_tail);
  print_name("lib_report", (void *)lib_report);
}
