// Sanitizers instrument globals, and ASan's pass runs after the start of the
// optimisation pipeline, where the plugin (loaded with -fpass-plugin, as
// rsb-clang does) adds its LTO link guard: the guard is not sanitized, so
// removing it before code generation leaves no red zone or metadata that
// refers to it (with ASan that crashed the compiler). Each sanitizer's
// build is instrumented and carries no guard.

// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu -O1 -fsanitize=address -c %s -o %t.asan.o
// RUN: llvm-readelf -sS %t.asan.o | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu -O1 -fsanitize=memory -c %s -o %t.msan.o
// RUN: llvm-readelf -sS %t.msan.o | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu -O1 -fsanitize=thread -c %s -o %t.tsan.o
// RUN: llvm-readelf -sS %t.tsan.o | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu -O1 -fsanitize=undefined -c %s -o %t.ubsan.o
// RUN: llvm-readelf -sS %t.ubsan.o | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -mllvm -x86-rsb-stuff -target x86_64-linux-gnu -O1 -fsanitize=address -emit-llvm -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=IR

// CHECK-NOT: lto_guard
// CHECK:     __rsb_entry.f
// CHECK-NOT: lto_guard

// IR: @__rsb_stuff.lto_guard = internal constant ptr @__rsb_stuff_lto_link_without_plugin, section ".note.rsb_stuff.lto_guard", no_sanitize_address, no_sanitize_hwaddress, align 8

int g[4];
int f(int i) { return g[i]; }
