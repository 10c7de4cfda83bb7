// C++ try/catch through clang: every landing pad of an instrumented function
// (the catch handler, the cleanup that ends the catch during unwinding and
// the terminate pad) starts, right after its EH label, with
// `callq __rsb_reset_depth`: the unwinder's calls and returns ran unseen in
// between. The normal path, a counted call to may_throw, gets no reset.
// A call that never returns to a declared function (_Unwind_Resume) is not
// counted: nothing would match the count, and under LTO the link has no
// entry for _Unwind_Resume, which code generation adds. One to a function
// defined here (__clang_call_terminate) goes through its entry as usual.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -S %s -o - \
// RUN:   | FileCheck %s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -c %s -o %t.o
// RUN: llvm-objdump -dr --no-show-raw-insn --disassemble-symbols=_Z7guardedi \
// RUN:   %t.o | FileCheck %s --check-prefix=OBJ
// RUN: %clang_rsb -mllvm -x86-rsb-stuff-reset=false -target x86_64-linux-gnu \
// RUN:   -O2 -fno-pic -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=OFF --implicit-check-not=__rsb_reset_depth

// CHECK-LABEL: {{^}}_Z7guardedi:
// CHECK:         callq __rsb_entry._Z9may_throwi{{$}}
// CHECK-NOT:     __rsb_reset_depth
// CHECK:         je __rsb_refill_return # TAILCALL
// CHECK-NEXT:    retq
// CHECK-NEXT:  .LBB0_[[#]]:
// CHECK-NEXT:    .cfi_def_cfa_offset 16
// CHECK-NEXT:  .Ltmp[[#]]: # EH_LABEL
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}
// CHECK-NEXT:    movq %rax, %rdi
// CHECK-NEXT:    callq __rsb_entry.__cxa_begin_catch{{$}}
// CHECK-NOT:     __rsb_reset_depth
// CHECK:         jmp .LBB0_[[#]]
// CHECK-NEXT:  .LBB0_[[#]]:
// CHECK-NEXT:  .Ltmp[[#]]: # EH_LABEL
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}
// CHECK-NOT:     __rsb_reset_depth
// CHECK:         callq _Unwind_Resume@PLT{{$}}
// CHECK-NEXT:  .LBB0_[[#]]:
// CHECK-NEXT:  .Ltmp[[#]]: # EH_LABEL
// CHECK-NEXT:    callq __rsb_reset_depth{{$}}
// CHECK-NEXT:    movq %rax, %rdi
// CHECK-NEXT:    callq __rsb_entry.__clang_call_terminate{{$}}
// CHECK-NEXT:  .Lfunc_end0:

// Exactly three resets in the function, one per landing pad.
// OBJ-LABEL: <_Z7guardedi>:
// OBJ-COUNT-3:   R_X86_64_PLT32 __rsb_reset_depth-0x4
// OBJ-NOT:       __rsb_reset_depth

// OFF-LABEL: {{^}}_Z7guardedi:
// OFF:         je __rsb_refill_return # TAILCALL
// OFF-NEXT:    retq
// OFF-NEXT:  .LBB0_[[#]]:
// OFF-NEXT:    .cfi_def_cfa_offset 16
// OFF-NEXT:  .Ltmp[[#]]: # EH_LABEL
// OFF-NEXT:    movq %rax, %rdi
// OFF-NEXT:    callq __rsb_entry.__cxa_begin_catch{{$}}

void may_throw(int);
void handle();

int guarded(int x) {
  try {
    may_throw(x);
  } catch (...) {
    handle();
    return 1;
  }
  return 0;
}
