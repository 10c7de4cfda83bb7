//===- RSBStuffEligibility.cpp - Which functions are instrumented ---------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// A function is instrumented (accounting entry, returns through the thunk)
// unless the user left it out on purpose, or it is assembly in all but name
// (naked) or never called (an interrupt handler): those get a remark. A
// function the pass cannot instrument although the user asked for it is an
// error, never a silent skip: a calling convention that pops its arguments
// (`ret $n`), returns that already go through another thunk, returns through
// __builtin_eh_return, a split stack, LVI hardening.
//
// Every decision is made from the IR alone, so that callers in the same
// module agree with the callee about whether it has an entry.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"
#include "RSBStuffOptions.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

/// Conventions whose callee pops its stack arguments (`ret $n`) on x86-64
/// (X86::isCalleePop): the return thunk's `ret` cannot.
bool rsbstuff::popsArguments(unsigned CC, const TargetMachine &TM) {
  switch (CC) {
  case CallingConv::Tail:
  case CallingConv::SwiftTail:
    return true;
  case CallingConv::Fast:
  case CallingConv::GHC:
  case CallingConv::HiPE:
  case CallingConv::X86_RegCall:
    return TM.Options.GuaranteedTailCallOpt;
  default:
    return false;
  }
}

static bool callsEHReturn(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::eh_return_i64 ||
          II->getIntrinsicID() == Intrinsic::eh_return_i32)
        return true;
  return false;
}

StringRef rsbstuff::skipReason(const Function &F) {
  if (F.hasFnAttribute(OptOutAttr))
    return F.getFnAttribute(OptOutAttr).getValueAsString();
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked function (its returns are its own assembly)";
  if (F.getCallingConv() == CallingConv::X86_INTR)
    return "interrupt handler (entered by the CPU, returns with iret)";
  return "";
}

std::string rsbstuff::refusalReason(const Function &F,
                                    const TargetMachine &TM) {
  if (!skipReason(F).empty() || F.isDeclaration())
    return "";
  if (popsArguments(F.getCallingConv(), TM))
    return "its calling convention pops its arguments on return (`ret $n`), "
           "which the return thunk cannot do";
  if (F.hasFnAttribute(Attribute::FnRetThunkExtern))
    return "its returns already go through __x86_return_thunk "
           "(-mfunction-return=thunk-extern); rsb-stuff needs them to go "
           "through its own return thunk";
  if (callsEHReturn(F))
    return "it returns through __builtin_eh_return, which the return thunk "
           "cannot account";
  if (F.hasFnAttribute("split-stack"))
    return "it has a split stack (-fsplit-stack): __morestack runs its body "
           "at a return address it computes and comes back through plain "
           "returns the counter cannot see";
  return featureProblem(F.getFnAttribute("target-features").getValueAsString());
}

bool rsbstuff::isInstrumented(const Function &F, const TargetMachine &TM) {
  return !F.isDeclarationForLinker() && skipReason(F).empty() &&
         refusalReason(F, TM).empty();
}

bool rsbstuff::hasDataBeforeEntry(const Function &F) {
  if (F.hasPrefixData() || F.hasMetadata(LLVMContext::MD_func_sanitize) ||
      F.getFnAttributeAsParsedInteger("patchable-function-prefix", 0) > 0)
    return true;
  // The KCFI type hash is only emitted in modules built with -fsanitize=kcfi.
  return F.hasMetadata(LLVMContext::MD_kcfi_type) &&
         F.getParent()->getModuleFlag("kcfi");
}

bool rsbstuff::isRuntimeFunction(StringRef Name) {
  return Name.starts_with("__rsb") ||
         StringSwitch<bool>(Name)
             .Cases({"rsb_depth_read", "rsb_depth_reset", "rsb_depth_address",
                     "rsb_stats_read", "rsb_stats_reset"},
                    true)
             .Default(false);
}
