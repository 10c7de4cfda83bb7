; An indirect call whose target is loaded from a constant table of functions
; this module instruments is counted with no mark check: `sarq` right
; before the call, which keeps its memory or register form. A table the
; program can write or another object may preempt, one holding a null
; entry, a declaration, a weak definition, a skipped or an elided function
; or anything but functions, and a volatile load keep the mark check (or
; the reset where there is none). Shared-object code takes the
; initial-exec counter, through %r11.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -verify-machineinstrs \
; RUN:   -asm-verbose=false -x86-rsb-stuff-skip=op_skipped \
; RUN:   -x86-rsb-stuff-elide-depth=1 %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   -asm-verbose=false -x86-rsb-stuff-skip=op_skipped \
; RUN:   -x86-rsb-stuff-elide-depth=1 %s -o - | FileCheck %s --check-prefix=PIC
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -asm-verbose=false \
; RUN:   -x86-rsb-stuff-count-table-calls=false %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -stats \
; RUN:   -x86-rsb-stuff-skip=op_skipped -x86-rsb-stuff-elide-depth=1 %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
; STATS: 3 x86-rsb-stuff - Indirect calls through a constant table of instrumented functions

@ops = internal constant [2 x ptr] [ptr @op_a, ptr @op_b]
@nested = internal constant [2 x [1 x ptr]] [[1 x ptr] [ptr @op_a], [1 x ptr] [ptr @op_b]]
@writable = internal global [2 x ptr] [ptr @op_a, ptr @op_b]
@with_null = internal constant [2 x ptr] [ptr @op_a, ptr null]
@with_extern = internal constant [2 x ptr] [ptr @op_a, ptr @op_extern]
@with_weak = internal constant [2 x ptr] [ptr @op_a, ptr @op_weak]
@with_skipped = internal constant [2 x ptr] [ptr @op_a, ptr @op_skipped]
@with_elided = internal constant [2 x ptr] [ptr @op_a, ptr @op_elided]
@with_data = internal constant { ptr, i64 } { ptr @op_a, i64 1 }
@preemptible = constant [2 x ptr] [ptr @op_a, ptr @op_b]
@sink = global ptr null

declare i64 @op_extern(i64)

define internal i64 @op_a(i64 %x) noinline {
  %r = call i64 @op_extern(i64 %x)
  ret i64 %r
}

define internal i64 @op_b(i64 %x) noinline {
  %r = call i64 @op_extern(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

define weak i64 @op_weak(i64 %x) noinline {
  %r = call i64 @op_extern(i64 %x)
  ret i64 %r
}

define internal i64 @op_skipped(i64 %x) noinline {
  %r = call i64 @op_extern(i64 %x)
  ret i64 %r
}

; A leaf: elided with -x86-rsb-stuff-elide-depth=1, returns with `ret`.
define internal i64 @op_elided(i64 %x) noinline {
  %r = mul i64 %x, 3
  ret i64 %r
}

; CHECK-LABEL: {{^}}through_memory:
; CHECK-NOT:     {{__rsb_prefix_mark|__rsb_icall_r11}}
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *ops(,%r{{[a-z0-9]+}},8)
; CHECK-NEXT:    incq %rax
; PIC-LABEL:   {{^}}through_memory:
; PIC-NOT:       {{__rsb_prefix_mark|__rsb_icall_r11}}
; PIC:           leaq ops(%rip), [[BASE:%r[a-z0-9]+]]
; PIC:           movq __rsb_depth@GOTTPOFF(%rip), %r11
; PIC-NEXT:      sarq $5, %fs:(%r11)
; PIC-NEXT:      callq *([[BASE]],%r{{[a-z0-9]+}},8)
; PIC-NEXT:      incq %rax
; OFF-LABEL:   {{^}}through_memory:
; OFF:           callq __rsb_icall_r11
define i64 @through_memory(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @ops, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  %s = add i64 %r, 1
  ret i64 %s
}

; The loaded pointer is used again: the call takes it from a register.
; CHECK-LABEL: {{^}}through_register:
; CHECK-NOT:     {{__rsb_prefix_mark|__rsb_icall_r11}}
; CHECK:         movq ops(,%rdi,8), [[F:%r[a-z0-9]+]]
; CHECK-NOT:     movq {{.*}}, [[F]]
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *[[F]]
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         retq
define i64 @through_register(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @ops, i64 0, i64 %i
  %f = load ptr, ptr %p
  store ptr %f, ptr @sink
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}nested_table:
; CHECK-NOT:     {{__rsb_prefix_mark|__rsb_icall_r11}}
; CHECK:         sarq $5, %fs:__rsb_depth@TPOFF
; CHECK-NEXT:    callq *nested(,%r{{[a-z0-9]+}},8)
define i64 @nested_table(i64 %i, i64 %x) {
  %p = getelementptr [2 x [1 x ptr]], ptr @nested, i64 0, i64 %i, i64 0
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

define void @write_table(ptr %f) {
  store ptr %f, ptr @writable
  ret void
}

; CHECK-LABEL: {{^}}writable_table:
; CHECK:         callq __rsb_icall_r11
define i64 @writable_table(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @writable, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}null_entry:
; CHECK:         callq __rsb_icall_r11
define i64 @null_entry(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @with_null, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}extern_entry:
; CHECK:         callq __rsb_icall_r11
define i64 @extern_entry(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @with_extern, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}weak_entry:
; CHECK:         callq __rsb_icall_r11
define i64 @weak_entry(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @with_weak, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}skipped_entry:
; CHECK:         callq __rsb_icall_r11
define i64 @skipped_entry(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @with_skipped, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}elided_entry:
; CHECK:         callq __rsb_icall_r11
define i64 @elided_entry(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @with_elided, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}data_in_table:
; CHECK:         callq __rsb_icall_r11
define i64 @data_in_table(i64 %x) {
  %f = load ptr, ptr @with_data
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; Another object's definition of the table may be the one the load reads.
; CHECK-LABEL: {{^}}preemptible_table:
; CHECK:         callq __rsb_icall_r11
; PIC-LABEL:   {{^}}preemptible_table:
; PIC:           movq preemptible@GOTPCREL(%rip)
; PIC-NOT:       sarq
; PIC:           callq __rsb_reset_depth
define i64 @preemptible_table(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @preemptible, i64 0, i64 %i
  %f = load ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}

; CHECK-LABEL: {{^}}volatile_load:
; CHECK:         callq __rsb_icall_r11
define i64 @volatile_load(i64 %i, i64 %x) {
  %p = getelementptr [2 x ptr], ptr @ops, i64 0, i64 %i
  %f = load volatile ptr, ptr %p
  %r = call i64 %f(i64 %x)
  ret i64 %r
}
