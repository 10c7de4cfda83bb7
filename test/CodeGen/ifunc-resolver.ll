; An ifunc resolver runs once, when its symbol is bound: in a static program
; from the C library's start-up, before the thread pointer (and with it the
; counter) exists. So resolvers, the user's and the ones clang makes for
; target_clones, are not instrumented: no accounting entry, plain `retq`,
; and their calls are left as they are (a call to __rsb_entry.* would reach
; a fallback that clears the counter). The functions they select are
; instrumented as usual. A remark says why.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   -pass-remarks-missed=x86-rsb-stuff 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s

@__cpu_model = external global { i32, i32, i32, [1 x i32] }
declare void @__cpu_indicator_init()
declare ptr @choose(i64)

@work = weak_odr ifunc i32 (i32), ptr @work.resolver
@pick = ifunc i32 (i32), ptr @resolve_pick

define i32 @work.avx2(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

define i32 @work.default(i32 %x) {
  %r = mul i32 %x, 3
  ret i32 %r
}

; CHECK-NOT:   __rsb_entry.work.resolver:
; CHECK-LABEL: work.resolver:
; CHECK:         callq __cpu_indicator_init{{$|@PLT}}
; CHECK-NOT:     __rsb
; CHECK:         retq
; CHECK:         retq
; CHECK-NEXT:  .Lfunc_end2:
define weak_odr ptr @work.resolver() {
  call void @__cpu_indicator_init()
  %features = load i32, ptr getelementptr inbounds (i8, ptr @__cpu_model, i64 12)
  %avx2 = and i32 %features, 1024
  %has = icmp ne i32 %avx2, 0
  %impl = select i1 %has, ptr @work.avx2, ptr @work.default
  ret ptr %impl
}

; CHECK-NOT:   __rsb_entry.resolve_pick:
; CHECK-LABEL: resolve_pick:
; CHECK:         callq choose{{$|@PLT}}
; CHECK-NOT:     __rsb
; CHECK:       .Lfunc_end3:
define internal ptr @resolve_pick() {
  %impl = call ptr @choose(i64 1)
  ret ptr %impl
}

; CHECK-LABEL: __rsb_entry.caller:
; CHECK-LABEL: caller:
; CHECK:         callq work{{$|@PLT}}
; CHECK-NEXT:    callq __rsb_reset_depth
define i32 @caller(i32 %x) {
  %r = call i32 @work(i32 %x)
  %s = call i32 @pick(i32 %r)
  ret i32 %s
}

; REMARK: remark: {{.*}}'work.resolver' not instrumented: ifunc resolver (runs once, when the symbol is bound)
; REMARK: remark: {{.*}}'resolve_pick' not instrumented: ifunc resolver (runs once, when the symbol is bound)
