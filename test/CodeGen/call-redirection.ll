; Direct calls to functions that may be instrumented go to their accounting
; entries: a static or hidden definition here (its local entry), an external
; declaration (resolved by the linker, with @PLT where the callee may be in
; another module), a hidden declaration, a definition that is not dso_local
; (preemptible: by name, @PLT) and linkonce_odr / weak_odr definitions
; (COMDAT: the linker may keep another object's copy, so they are reached by
; name whether dso_local or not). The call keeps its PLT flag.

; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff %s -o - \
; RUN:   | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -relocation-model=pic \
; RUN:   %s -o - | FileCheck %s
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -filetype=obj %s -o %t.o
; RUN: llvm-objdump -dr %t.o | FileCheck %s --check-prefix=OBJ
;; Without the plugin nothing is redirected.
; RUN: llc -mtriple=x86_64-linux-gnu %s -o - | FileCheck %s --check-prefix=OFF
; RUN: %clang_rsb -target x86_64-linux-gnu -O2 -fno-pic -Wno-override-module \
; RUN:   -S -x ir %s -o - | FileCheck %s

declare void @ext()
declare dso_local void @dso_ext()
declare hidden void @hidden_ext()

define internal void @leaf() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define hidden void @hidden_def() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define linkonce_odr void @linkonce() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define weak_odr void @weakodr() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define linkonce_odr dso_local void @linkonce_local() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define weak_odr dso_local void @weakodr_local() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define dso_local void @strong_local() noinline {
  call void asm sideeffect "", ""()
  ret void
}

define void @preemptible() noinline {
  call void asm sideeffect "", ""()
  ret void
}

; CHECK-LABEL: caller:
; CHECK:         callq __rsb_entry.leaf{{$}}
; CHECK-NEXT:    callq __rsb_entry.ext@PLT
; CHECK-NEXT:    callq __rsb_entry.dso_ext{{$}}
; CHECK-NEXT:    callq __rsb_entry.hidden_ext{{$}}
; CHECK-NEXT:    callq __rsb_entry.hidden_def{{$}}
; CHECK-NEXT:    callq __rsb_entry.linkonce@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.weakodr@PLT{{$}}
; CHECK-NEXT:    callq __rsb_entry.linkonce_local{{$}}
; CHECK-NEXT:    callq __rsb_entry.weakodr_local{{$}}
; CHECK-NEXT:    callq __rsb_entry.strong_local{{$}}
; CHECK-NEXT:    callq __rsb_entry.preemptible@PLT{{$}}
; CHECK-NOT:     callq {{[a-z]}}
; CHECK-NOT:     __rsb_reset_depth
; CHECK:         je __rsb_refill_return
; CHECK:       .Lfunc_end

; OBJ-LABEL: <caller>:
; OBJ:         e8 {{.*}} callq 0x{{[0-9a-f]+}} <__rsb_entry.leaf>
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.ext-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.dso_ext-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.hidden_ext-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.hidden_def-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.linkonce-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.weakodr-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.linkonce_local-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.weakodr_local-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.strong_local-0x4
; OBJ-NEXT:    e8 00 00 00 00 callq
; OBJ-NEXT:      R_X86_64_PLT32 __rsb_entry.preemptible-0x4

; OFF-LABEL: caller:
; OFF-NOT:   __rsb
; OFF:       callq leaf
; OFF-NOT:   __rsb
; OFF:       retq

define void @caller() {
  call void @leaf()
  call void @ext()
  call void @dso_ext()
  call void @hidden_ext()
  call void @hidden_def()
  call void @linkonce()
  call void @weakodr()
  call void @linkonce_local()
  call void @weakodr_local()
  call void @strong_local()
  call void @preemptible()
  call void asm sideeffect "", ""()
  ret void
}
