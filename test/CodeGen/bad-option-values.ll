; Bad values of the plugin's options are rejected with an error and a
; non-zero exit, never a crash: an unknown -x86-rsb-stuff-tls form, a bad
; -x86-rsb-stuff-reset boolean, and symbol names (return thunk, counter, tail
; accounting and reset helpers) that are empty or not plain identifiers.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-tls=bogus %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TLS --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-thunk= %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=EMPTY --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   "-x86-rsb-stuff-return-thunk=my thunk" %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=SPACE --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-thunk=1thunk %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DIGIT --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   "-x86-rsb-stuff-counter=a;b" %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COUNTER --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-tail-account= -filetype=obj %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=TAIL --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-reset-helper= %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RESET --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   "-x86-rsb-stuff-reset-helper=reset(x)" -filetype=obj %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RESET-PAREN --implicit-check-not="Stack dump"
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-reset=maybe %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=RESET-BOOL --implicit-check-not="Stack dump"
;; Valid unusual names are accepted.
; RUN: %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-return-check=thunk -x86-rsb-stuff-return-thunk=_my.thunk$1 \
; RUN:   %s -o - | FileCheck %s --check-prefix=OK

; TLS:     for the --x86-rsb-stuff-tls option: Cannot find option named 'bogus'!
; EMPTY:   error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-return-thunk
; SPACE:   error: x86-rsb-stuff: invalid symbol name 'my thunk' for -x86-rsb-stuff-return-thunk
; DIGIT:   error: x86-rsb-stuff: invalid symbol name '1thunk' for -x86-rsb-stuff-return-thunk
; COUNTER: error: x86-rsb-stuff: invalid symbol name 'a;b' for -x86-rsb-stuff-counter
; TAIL:    error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-tail-account
; RESET:   error: x86-rsb-stuff: invalid symbol name '' for -x86-rsb-stuff-reset-helper
; RESET-PAREN: error: x86-rsb-stuff: invalid symbol name 'reset(x)' for -x86-rsb-stuff-reset-helper
; RESET-BOOL: for the --x86-rsb-stuff-reset option: 'maybe' is invalid value for boolean argument! Try 0 or 1

; OK: jmp _my.thunk$1 # TAILCALL

define void @f() {
  ret void
}
