// clang's -Rpass-missed=x86-rsb-stuff and -Rpass=x86-rsb-stuff report the
// plugin's decisions with source locations: skipped functions (naked, an
// interrupt handler) and instrumented ones with their counts, the last of
// which is the number of credit resets after calls the counter cannot see.
// The reset before a tail call to a plain target is part of that tail call's
// handling and not counted there.

// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -mgeneral-regs-only \
// RUN:   -Rpass-missed=x86-rsb-stuff -S %s -o %t.s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSED --implicit-check-not=remark:
// RUN: FileCheck %s --check-prefix=ASM < %t.s
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -mgeneral-regs-only \
// RUN:   -Rpass=x86-rsb-stuff -S %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PASSED --implicit-check-not=remark:
// RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -mgeneral-regs-only \
// RUN:   -S %s -o /dev/null 2>&1 | count 0

// In the file's order, as the code generator reaches the functions: with
// -DAG, FileCheck would not apply --implicit-check-not=remark: between or
// after the matched remarks.
// MISSED: remarks.c:[[#@LINE+33]]:1: remark: 'naked_fn' not instrumented: naked function (its returns are its own assembly) [-Rpass-missed=x86-rsb-stuff]
// MISSED: remarks.c:[[#@LINE+33]]:1: remark: 'isr' not instrumented: interrupt handler (entered by the CPU, returns with iret) [-Rpass-missed=x86-rsb-stuff]

// PASSED: remarks.c:[[#@LINE+32]]:1: remark: 'plain' instrumented: 0 calls redirected, 1 returns lowered, 0 tail calls, 0 credit resets [-Rpass=x86-rsb-stuff]
// PASSED: remarks.c:[[#@LINE+32]]:1: remark: 'caller' instrumented: 1 calls redirected, 0 returns lowered, 1 tail calls, 0 credit resets [-Rpass=x86-rsb-stuff]
// PASSED: remarks.c:[[#@LINE+32]]:1: remark: 'resets' instrumented: 0 calls redirected, 0 returns lowered, 1 tail calls, 2 credit resets [-Rpass=x86-rsb-stuff]

// ASM:       .type naked_fn,@function
// ASM-NEXT:  naked_fn:
// ASM:         retq
// ASM:       .type isr,@function
// ASM-NEXT:  isr:
// ASM:         iretq
// ASM-LABEL: {{^}}caller:
// ASM:         callq __rsb_entry.plain{{$}}
// ASM:         leaq -8(%rsp), %rsp
// ASM:         callq naked_fn{{$}}
// ASM:         jmp __rsb_reset_depth # TAILCALL
// ASM-LABEL: {{^}}resets:
// ASM:         callq puts{{$}}
// ASM-NEXT:    callq __rsb_reset_depth{{$}}
// The call through the pointer goes to the runtime's copy of the mark
// check, which makes it: counted for a marked target, followed by a reset
// for any other (test/CodeGen/indirect-call-shared-call.ll), so no remark
// is due for it either.
// ASM:         movq %rbx, %r11
// ASM-NEXT:    callq __rsb_icall_r11{{$}}
// ASM-NOT:     __rsb
// ASM:         jmp plain # TAILCALL

struct frame;
int puts(const char *);

__attribute__((naked)) void naked_fn(void) { __asm__("retq"); }
__attribute__((interrupt)) void isr(struct frame *f) { (void)f; }
__attribute__((noinline)) int plain(int x) { __asm__ volatile(""); return x + 1; }
void caller(void) { plain(1); naked_fn(); }
int resets(void (*fp)(void)) { puts("x"); fp(); return plain(2); }
