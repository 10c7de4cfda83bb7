/* Calls the runtime's shared mark check (__rsb_count_marked_r11) directly
 * with targets of each kind and prints what it answered (ZF) and whether
 * it shifted the counter: it must count an instrumented function's entry
 * and nothing else. Built with -mno-red-zone: the asm's call writes below
 * %rsp. The probe is left uninstrumented (-x86-rsb-stuff-skip=probe): its
 * count has no call behind it, which rsb-verify reports in instrumented
 * code. */
#include <rsb_stuff.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int instrumented(int x) { return x + 1; }

static __attribute__((noinline)) void probe(const char *name, void *target) {
  rsb_depth_reset();
  uint64_t before = rsb_depth_read();
  register void *r11 __asm__("r11") = target;
  unsigned char counted;
  __asm__ volatile("call __rsb_count_marked_r11\n\tsete %0"
                   : "=r"(counted), "+r"(r11)
                   :
                   : "r10", "cc", "memory");
  uint64_t after = rsb_depth_read();
  /* The probe's shift has no call behind it: take the credit away again. */
  rsb_depth_reset();
  printf("%s: counted=%d shifted=%d\n", name, counted,
         after == (uint64_t)((int64_t)before >> 5));
}

int main(void) {
  probe("instrumented", (void *)instrumented);
  probe("libc abs", (void *)abs);
  probe("null", (void *)0);
  probe("vsyscall", (void *)0xffffffffff600000ull);
  probe("entry+1", (char *)instrumented + 1);
  return instrumented(0) - 1;
}
