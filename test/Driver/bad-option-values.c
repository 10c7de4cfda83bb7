// Bad plugin option values given through clang -mllvm: an error and a
// non-zero exit, no crash.

// RUN: not %clang_rsb -mllvm -x86-rsb-stuff-tls=bogus -target x86_64-linux-gnu \
// RUN:   -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TLS --implicit-check-not="Stack dump"
// RUN: not %clang_rsb -mllvm -x86-rsb-stuff-return-thunk= \
// RUN:   -target x86_64-linux-gnu -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMPTY --implicit-check-not="Stack dump"
// RUN: not %clang_rsb -mllvm "-x86-rsb-stuff-return-thunk=my thunk" \
// RUN:   -target x86_64-linux-gnu -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SPACE --implicit-check-not="Stack dump"
// RUN: not %clang_rsb -mllvm -x86-rsb-stuff-reset-helper= \
// RUN:   -target x86_64-linux-gnu -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESET --implicit-check-not="Stack dump"
// RUN: not %clang_rsb -mllvm -x86-rsb-stuff-stats-block= \
// RUN:   -target x86_64-linux-gnu -S %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=STATS --implicit-check-not="Stack dump"

// TLS:   for the --x86-rsb-stuff-tls option: Cannot find option named 'bogus'!
// EMPTY: error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-return-thunk
// SPACE: error: x86-rsb-stuff: invalid symbol name 'my thunk' for -x86-rsb-stuff-return-thunk
// STATS: error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-stats-block
// RESET: error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-reset-helper

int f(int x) { return x + 1; }
