// Through clang, -mllvm -x86-rsb-stuff on a target other than x86-64 ELF (or
// with -mcmodel=kernel) is an error naming the target; clang exits non-zero
// without crashing.

// RUN: not %clang_rsb -target aarch64-linux-gnu -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AARCH64 --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-apple-macosx -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MACHO --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-pc-windows-msvc -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COFF --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target i386-linux-gnu -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=I386 --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-linux-gnu -m32 -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=I386 --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-linux-gnux32 -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=X32 --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-linux-gnu -mx32 -O2 -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=X32 --implicit-check-not="Stack dump" \
// RUN:     --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target x86_64-linux-gnu -mcmodel=kernel -O2 -c %s \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL \
// RUN:   --implicit-check-not="Stack dump" --implicit-check-not="PLEASE submit"
// RUN: not %clang_rsb -target aarch64-linux-gnu -O0 -S %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AARCH64 --implicit-check-not="Stack dump"

// AARCH64: error: x86-rsb-stuff: target 'aarch64-unknown-linux-gnu' is not supported: only x86-64 (LP64) is
// MACHO:   error: x86-rsb-stuff: target 'x86_64-apple-macosx{{[0-9.]*}}' is not supported: only ELF object files are
// COFF:    error: x86-rsb-stuff: target 'x86_64-pc-windows-msvc{{[0-9.]*}}' is not supported: only ELF object files are
// I386:    error: x86-rsb-stuff: target 'i386-unknown-linux-gnu' is not supported: only x86-64 (LP64) is
// X32:     error: x86-rsb-stuff: target 'x86_64-unknown-linux-gnux32' is not supported: only x86-64 (LP64) is
// KERNEL:  error: x86-rsb-stuff: -mcmodel=kernel needs -x86-rsb-stuff-kernel

int f(int x) { return x + 1; }
