//===- RSBStuffElision.cpp - Functions whose calls fit the RSB's spare ----===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The counter's credit is at most 12 returns while the RSB has 16 entries,
// so 4 entries above the credit are always spare. A function whose whole
// call subtree is known and at most 4 calls deep (itself included) pushes
// and pops only spare entries: it cannot take an entry the credit stands for,
// so it needs no accounting and may return with a plain `ret`. Its callers
// then call it uncounted and need no reset after it. docs/performance.md has
// the argument in full.
//
// The depth is computed from the IR. Where the code generator adds calls the
// IR does not show (libcalls), the pass clears the credit after them inside
// the elided function, so a wrong estimate costs a refill, never safety.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace rsbstuff;

CallDepth::CallDepth(unsigned Limit, Predicate CanElide,
                     Predicate IsLeafDeclaration)
    : Limit(Limit), CanElide(std::move(CanElide)),
      IsLeafDeclaration(std::move(IsLeafDeclaration)) {}

bool CallDepth::isElided(const Function &F) {
  return Limit != 0 && CanElide(F) && depth(F) <= Limit;
}

/// Depth of the calls one call instruction makes, the callee included.
unsigned CallDepth::callDepth(const CallBase &Call) {
  if (Call.isInlineAsm()) {
    const auto *Asm = cast<InlineAsm>(Call.getCalledOperand());
    return StringRef(Asm->getAsmString()).contains("call") ? TooDeep : 0;
  }
  const Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return TooDeep;
  if (Callee->isIntrinsic()) {
    // Memory intrinsics may become libcalls to leaves; the rest lower to
    // instructions (libcalls they may still need are caught in the pass).
    return isa<AnyMemIntrinsic>(Call) ? 1 : 0;
  }
  if (Callee->isDeclarationForLinker())
    return IsLeafDeclaration(*Callee) ? 1 : TooDeep;
  return CanElide(*Callee) ? depth(*Callee) : TooDeep;
}

unsigned CallDepth::depth(const Function &F) {
  auto [It, Inserted] = Memo.try_emplace(&F, TooDeep);
  if (!Inserted)
    return It->second; // Known, or recursion (TooDeep while in progress).
  unsigned Deepest = 0;
  for (const Instruction &I : instructions(F)) {
    if (const auto *Call = dyn_cast<CallBase>(&I))
      Deepest = std::max(Deepest, callDepth(*Call));
    if (Deepest >= Limit)
      break;
  }
  unsigned Result = Deepest >= Limit ? TooDeep : Deepest + 1;
  Memo[&F] = Result;
  return Result;
}
