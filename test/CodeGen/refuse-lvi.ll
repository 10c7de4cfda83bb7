; LVI hardening (-mlvi-cfi, -mlvi-hardening: target feature +lvi-cfi or
; +lvi-load-hardening) turns every `ret` into `pop %reg; lfence; jmp *%reg`
; before the pass runs: the prefix would count calls whose returns the thunk
; never sees, an over-count. It is refused with an error, for the whole
; target or per function, never a half-instrumented output.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -mattr=+lvi-cfi %s \
; RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=TARGET
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -mattr=+lvi-load-hardening %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TARGET
; RUN: sed -e 's/"lvi-attributes"/"target-features"="+lvi-cfi"/' %s \
; RUN:   | not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FUNC --implicit-check-not=error:
;; Without the plugin's option the hardened return is there.
; RUN: llc -mtriple=x86_64-linux-gnu -mattr=+lvi-cfi %s -o - \
; RUN:   | FileCheck %s --check-prefix=OFF

; TARGET: error: x86-rsb-stuff: -mlvi-cfi and -mlvi-hardening are not supported: they turn every return into `pop; lfence; jmp *`, which the return thunk cannot account
; FUNC:   error: {{.*}}x86-rsb-stuff: 'hardened' cannot be instrumented: -mlvi-cfi and -mlvi-hardening are not supported

; OFF-LABEL: {{^}}hardened:
; OFF:         popq %rcx
; OFF-NEXT:    lfence
; OFF-NEXT:    jmpq *%rcx

define i32 @hardened(i32 %x) "lvi-attributes" {
  %r = add i32 %x, 1
  ret i32 %r
}
