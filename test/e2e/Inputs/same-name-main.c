/* helper and tail_helper are the program's own and not exported (no
   -rdynamic): the plugin it loads calls, and tail-calls, functions of the
   same names in its own library, libsame-other.so, as in the plain build. */
#include <dlfcn.h>
#include <stdio.h>

__attribute__((noinline)) int helper(void) {
  __asm__ volatile("");
  return 1;
}

__attribute__((noinline)) int tail_helper(void) {
  __asm__ volatile("");
  return 4;
}

int main(int argc, char **argv) {
  (void)argc;
  void *plugin = dlopen(argv[1], RTLD_NOW);
  if (!plugin) {
    printf("%s\n", dlerror());
    return 1;
  }
  int (*plug)(void) = (int (*)(void))dlsym(plugin, "plug");
  int (*plug_tail)(void) = (int (*)(void))dlsym(plugin, "plug_tail");
  printf("helper() = %d, tail_helper() = %d, plug() = %d, plug_tail() = %d\n",
         helper(), tail_helper(), plug(), plug_tail());
  return 0;
}
