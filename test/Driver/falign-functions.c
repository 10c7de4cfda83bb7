// clang -falign-functions=64 and __attribute__((aligned(64))) put `align 64`
// on the IR functions; instrumented functions must still start 64-byte
// aligned, with the accounting ending at the entry.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -falign-functions=64 \
// RUN:   -c %s -o %t.o
// RUN: llvm-readelf -s %t.o > %t.sym
// RUN: FileCheck %s --check-prefix=ALIGN < %t.sym
// RUN: FileCheck %s --check-prefix=SYM < %t.sym
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -c %s -o %t.attr.o
// RUN: llvm-readelf -s %t.attr.o | FileCheck %s --check-prefix=ATTR

// ALIGN-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
// ALIGN-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
// ALIGN-DAG: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] aligned_attr{{$}}

// SYM-DAG: [[#%x,FIRST:]] [[#]] FUNC GLOBAL DEFAULT [[#]] first{{$}}
// SYM-DAG: [[#%.16x,FIRST-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.first{{$}}
// SYM-DAG: [[#%x,SECOND:]] [[#]] FUNC GLOBAL DEFAULT [[#]] second{{$}}
// SYM-DAG: [[#%.16x,SECOND-10]] 10 FUNC GLOBAL DEFAULT [[#]] __rsb_entry.second{{$}}

// ATTR: {{[0-9a-f]{14}[048c]0}} [[#]] FUNC GLOBAL DEFAULT [[#]] aligned_attr{{$}}

int first(int x) { return x * 3; }
int second(int x) { return x + 11; }
__attribute__((aligned(64))) int aligned_attr(int x) { return x - 5; }
