; caller ends with a tail call, `jmp callee`, right before the prefix of
; callee, which has no tail stub (callee is local) and no filler: the jmp is
; caller's, not a tail stub (test/verifier/sizes.test).
target triple = "x86_64-unknown-linux-gnu"

@sink = global i32 0

define void @caller() noinline {
  call void asm sideeffect ".nops 4", ""()
  tail call void @callee()
  ret void
}

define internal void @callee() noinline {
  store volatile i32 1, ptr @sink
  ret void
}

define i32 @main() {
  call void @caller()
  ret i32 0
}
