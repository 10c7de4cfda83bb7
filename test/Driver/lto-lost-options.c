// Code generated at link time (-flto) sees only the settings the compile
// step records in the bitcode: -x86-rsb-stuff, -stats, -elide-depth,
// -return-check and the skip list. Any other rsb-stuff option given to a
// compile step that writes bitcode for LTO is refused, naming it, instead
// of being silently dropped (the link would count indirect calls that
// -x86-rsb-stuff-count-indirect=false asked to leave alone). Compiles that
// generate code themselves keep every option.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not %rsb-clang -O2 -flto -mllvm -x86-rsb-stuff-count-indirect=false -c %s -o %t/full.o 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %rsb-clang -O2 -flto=thin -mllvm -x86-rsb-stuff-count-indirect=false -c %s -o %t/thin.o 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %rsb-clang -O0 -flto=thin -mllvm -x86-rsb-stuff-count-indirect=false -c %s -o %t/o0.o 2>&1 | FileCheck %s --check-prefix=LOST
// RUN: not %rsb-clang -O2 -flto -mllvm -x86-rsb-stuff-return-thunk=my_thunk -mllvm -x86-rsb-stuff-cold-ratio=2 -c %s -o %t/two.o 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %rsb-clang -O2 -mllvm -x86-rsb-stuff-count-indirect=false -c %s -o %t/plain.o
// RUN: %rsb-clang -O2 -flto -mllvm -x86-rsb-stuff-elide-depth=2 -mllvm -x86-rsb-stuff-return-check=thunk -mllvm -x86-rsb-stuff-skip=call -c %s -o %t/recorded.o
// RUN: %rsb-clang --rsb-stats -O2 -flto=thin -c %s -o %t/stats.o
// LOST: error: x86-rsb-stuff: -x86-rsb-stuff-count-indirect does not reach the code generated at link time (-flto): build this file without -flto, or without the option
// TWO: error: x86-rsb-stuff: -x86-rsb-stuff-cold-ratio does not reach
// TWO-NEXT: error: x86-rsb-stuff: -x86-rsb-stuff-return-thunk does not reach

int call(int (*f)(int), int x) { return f(x) + 1; }
