//===- RSBStuffStackArgs.cpp - Check the register-arguments marks ---------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Only calls that pass every argument in a register may go through
// `__rsb_entry.f` by name: rsb-ld's fallback calls f from a frame of its
// own, 16 bytes lower, where stack arguments would not be where f looks for
// them. The IR preparation pass decides that from the IR types
// (RegisterArgsAttr); this pass checks the decision against what
// instruction selection did, right after it: a call to a marked function
// whose call frame holds outgoing arguments is a hard error (the
// classification missed a case), never a silently wrong program. Tail
// calls have no call frame of their own and are not checked here.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"
#include "RSBStuffOptions.h"

#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace rsbstuff;

namespace {

class RSBStuffStackArgs : public MachineFunctionPass {
public:
  static char ID;
  RSBStuffStackArgs() : MachineFunctionPass(ID) {}
  StringRef getPassName() const override {
    return "rsb-stuff register-arguments check";
  }
  bool runOnMachineFunction(MachineFunction &MF) override;
};

} // namespace

char RSBStuffStackArgs::ID = 0;

char &rsbstuff::StackArgsCheckID = RSBStuffStackArgs::ID;

static RegisterPass<RSBStuffStackArgs>
    Register("x86-rsb-stuff-stack-args",
             "rsb-stuff: check calls by name pass no stack arguments");

bool RSBStuffStackArgs::runOnMachineFunction(MachineFunction &MF) {
  if (!settingsFor(*MF.getFunction().getParent()).Enabled || kernel::enabled())
    return false;
  const TargetInstrInfo &TII = *MF.getSubtarget().getInstrInfo();
  for (const MachineBasicBlock &MBB : MF) {
    int64_t FrameSize = 0;
    for (const MachineInstr &MI : MBB) {
      if (TII.isFrameInstr(MI)) {
        FrameSize = TII.isFrameSetup(MI) ? TII.getFrameSize(MI) : 0;
        continue;
      }
      if (!MI.isCall() || MI.isReturn() || FrameSize == 0)
        continue;
      for (const MachineOperand &MO : MI.operands()) {
        const auto *F =
            MO.isGlobal() ? dyn_cast<Function>(MO.getGlobal()) : nullptr;
        if (!F || !F->hasFnAttribute(RegisterArgsAttr))
          continue;
        const Function &Caller = MF.getFunction();
        Caller.getContext().diagnose(DiagnosticInfoUnsupported(
            Caller,
            "x86-rsb-stuff: '" + Caller.getName() + "' calls '" + F->getName() +
                "' with " + Twine(FrameSize) +
                " bytes of stack arguments, which the IR classification "
                "took for a call in registers (rsb-ld's fallback would "
                "move them): please report this",
            DiagnosticLocation(), DS_Error));
      }
    }
  }
  return false;
}
