// Instrumented code with -g keeps valid DWARF, and each prefix has an FDE of
// its own that starts at the entry symbol and covers exactly the accounting
// bytes (a signal or a profiler can stop there); f's FDE starts at f.

/// The addresses and sizes below are those of the thunk form of returns;
/// the -O0 and DWARF 4 builds have the default, in-place form.
// RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
// RUN:   -target x86_64-linux-gnu -O2 -g -fno-pic -c %s -o %t.o
// RUN: llvm-dwarfdump --verify %t.o | FileCheck %s --check-prefix=VERIFY
// RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=SYM
// RUN: llvm-dwarfdump --eh-frame %t.o | FileCheck %s --check-prefix=EH
// RUN: %clang_rsb -target x86_64-linux-gnu -O0 -g -fno-pic -c %s -o %t.O0.o
// RUN: llvm-dwarfdump --verify %t.O0.o | FileCheck %s --check-prefix=VERIFY
// RUN: %clang_rsb -mllvm -x86-rsb-stuff-return-check=thunk \
// RUN:   -target x86_64-linux-gnu -O2 -g -fPIC -c %s -o %t.pic.o
// RUN: llvm-dwarfdump --verify %t.pic.o | FileCheck %s --check-prefix=VERIFY
// RUN: llvm-dwarfdump --eh-frame %t.pic.o | FileCheck %s --check-prefix=EHPIC
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -gdwarf-4 -c %s -o %t.dw4.o
// RUN: llvm-dwarfdump --verify %t.dw4.o | FileCheck %s --check-prefix=VERIFY
// RUN: llvm-dwarfdump --debug-info %t.o | FileCheck %s --check-prefix=INFO

// VERIFY: No errors.

// SYM-DAG: 0000000000000010 {{[0-9]+}} FUNC GLOBAL DEFAULT [[#]] f{{$}}
// SYM-DAG: 0000000000000006 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.f{{$}}
// SYM-DAG: 0000000000000040 {{[0-9]+}} FUNC LOCAL DEFAULT [[#]] leaf{{$}}
// SYM-DAG: 0000000000000036 10 FUNC LOCAL DEFAULT [[#]] __rsb_entry.leaf{{$}}

// The prefix's FDE: tail alias (global f only) and entry to f, the default
// rule (CFA = rsp + 8) throughout.
// EH:      FDE cie=00000000 pc=00000004...00000010
// EH-NOT:  DW_CFA_def_cfa_offset
// EH-NOT:  DW_CFA_advance_loc
// EH:      0x4: CFA=RSP+8: RIP=[CFA-8]
// EH:      FDE cie=00000000 pc=00000010...{{[0-9a-f]+}}
// EH:      FDE cie=00000000 pc=00000036...00000040
// EH-NOT:  DW_CFA_advance_loc
// EH:      0x36: CFA=RSP+8: RIP=[CFA-8]
// EH:      FDE cie=00000000 pc=00000040...{{[0-9a-f]+}}

// The initial-exec prefix is 12 bytes, after the 2-byte tail alias.
// EHPIC: FDE cie=00000000 pc=00000002...00000010
// EHPIC: FDE cie=00000000 pc=00000010...

// The subprograms still start at the functions, not at their entries.
// INFO:      DW_TAG_subprogram
// INFO-NEXT:   DW_AT_low_pc (0x0000000000000010)
// INFO:        DW_AT_name ("f")
// INFO:        DW_AT_low_pc (0x0000000000000040)
// INFO-NOT:  DW_TAG
// INFO:        DW_AT_name ("leaf")

int ext(int);

static __attribute__((noinline)) int leaf(int x) {
  __asm__ volatile("");
  return x * 3;
}

int f(int x) { return leaf(x) + ext(x); }
