// The consumer's executable: calls into its shared library, reads the
// counter through the installed header.
#include <rsb_stuff.h>
#include <stdio.h>

int depth(int n);

int main(void) {
  rsb_depth_reset();
  int d = depth(40);
  printf("depth=%d counter=0x%016llx\n", d,
         (unsigned long long)rsb_depth_read());
  return d == 40 ? 0 : 1;
}
