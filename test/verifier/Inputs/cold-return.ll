; A cold return that jumps to the in-place check of the hot one
; (llvm-pass/RSBStuffColdCode.cpp), in a program.
target triple = "x86_64-pc-linux-gnu"

@sink = global i32 0

define void @ext() noinline {
  store volatile i32 1, ptr @sink
  ret void
}

define void @slow() noinline {
  store volatile i32 2, ptr @sink
  ret void
}

define i32 @cold_return(i32 %x) noinline {
entry:
  call void @ext()
  %c = icmp eq i32 %x, 0
  br i1 %c, label %cold, label %hot, !prof !0
hot:
  ret i32 %x
cold:
  call void @slow()
  ret i32 -1
}

define i32 @main(i32 %argc, ptr %argv) {
  %r = call i32 @cold_return(i32 %argc)
  ret i32 %r
}

!0 = !{!"branch_weights", i32 1, i32 1000}
