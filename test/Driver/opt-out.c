// Per-function control: RSB_NOSTUFF (rsb_stuff.h) and the skip list
// (-x86-rsb-stuff-skip=, -x86-rsb-stuff-skip-file=) leave a function
// uninstrumented with a remark; calls to it are not counted and calls from
// instrumented functions to it are followed by a credit reset.
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -I%rtinclude -S %s -o - \
// RUN:   -Rpass-missed=x86-rsb-stuff 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -I%rtinclude -S %s -o - \
// RUN:   -mllvm -x86-rsb-stuff-skip=listed,other | FileCheck %s --check-prefix=LISTED
// RUN: printf 'listed  # from a file\n\n' > %t.skip
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -I%rtinclude -S %s -o - \
// RUN:   -mllvm -x86-rsb-stuff-skip-file=%t.skip | FileCheck %s --check-prefix=LISTED
// RUN: not %clang_rsb -target x86_64-linux-gnu -O2 -I%rtinclude -S %s -o /dev/null \
// RUN:   -mllvm -x86-rsb-stuff-skip-file=%t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
#include <rsb_stuff.h>

extern void sink(int);

RSB_NOSTUFF __attribute__((noinline)) void quiet(int x) { sink(x); }

__attribute__((noinline)) void listed(int x) { sink(x + 1); }

void caller(int x) {
  quiet(x);
  listed(x);
  sink(0);
}

// CHECK-NOT: __rsb_entry.quiet:
// CHECK-LABEL: quiet:
// CHECK: jmp sink
// CHECK-LABEL: __rsb_entry.listed:
// CHECK-LABEL: caller:
// CHECK: callq quiet
// CHECK-NEXT: callq __rsb_reset_depth
// CHECK: callq __rsb_entry.listed
// REMARK: remark: 'quiet' not instrumented: marked rsb_nostuff

// LISTED-NOT: __rsb_entry.listed:
// LISTED-LABEL: caller:
// LISTED: callq listed
// LISTED-NEXT: callq __rsb_reset_depth
// MISSING: error: x86-rsb-stuff: cannot read -x86-rsb-stuff-skip-file '{{.*}}.missing'
