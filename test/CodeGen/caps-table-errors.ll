; A depth table that cannot be read or parsed is an error, not a silent
; fallback: the user named it.

; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%t.missing %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING
; RUN: printf 'strlen 0 0\n' > %t.headless
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%t.headless %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=HEADLESS
; RUN: printf '# libc-depth 2 path /x/libc.so.6 build-id 00\n' > %t.version
; RUN: not %llc -mtriple=x86_64-linux-gnu -x86-rsb-stuff \
; RUN:   -x86-rsb-stuff-libc-depths=%t.version %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=VERSION

; MISSING: error: x86-rsb-stuff: -x86-rsb-stuff-libc-depths '{{.*}}.missing': cannot read {{.*}}
; HEADLESS: error: x86-rsb-stuff: -x86-rsb-stuff-libc-depths '{{.*}}.headless': function line before any library header
; VERSION: error: x86-rsb-stuff: -x86-rsb-stuff-libc-depths '{{.*}}.version': unknown table header '# libc-depth 2 path /x/libc.so.6 build-id 00'

declare i64 @strlen(ptr)

define i64 @f(ptr %s) {
  %l = call i64 @strlen(ptr %s)
  ret i64 %l
}
