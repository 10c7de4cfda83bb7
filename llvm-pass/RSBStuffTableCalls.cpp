//===- RSBStuffTableCalls.cpp - Indirect calls through constant tables ----===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// An interpreter's dispatch, `table[op](acc, arg)`, calls through a pointer
// that the compiler can name: a load from a constant array every element of
// which is a function this module instruments. Any target the call can
// reach (without undefined behaviour: an index out of the array's bounds)
// returns through the counter's check, so the call is counted as a direct
// one would be, with no mark check in front of it:
//
//   movq    (%r15,%rcx,8), %rax         the load, from @table
//   ...
//   sarq    $5, %fs:__rsb_depth@tpoff   the entry's accounting, done here
//   callq   *%rax                       (or `callq *table(,%rcx,8)`)
//
// The table is found through the load's memory operand (the IR value it
// reads from) and must be a constant with a definitive initialiser of
// functions only, and bound in this module: a null entry, a function the
// link may replace (weak, preemptible, an ODR copy), one left
// uninstrumented or elided (it returns with a plain `ret`), a table the
// program can write or another object can preempt, and the call takes the
// mark check (RSBStuffIndirectCalls.cpp) or the reset as before.
// docs/design.md, "Indirect calls through constant tables", has the
// argument.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

/// The size and least alignment of a table entry the load must read whole.
static constexpr uint64_t PointerBytes = 8;

/// The constant global MI loads its one 8-byte, 8-aligned value from.
static const GlobalVariable *tableLoadedBy(const MachineInstr &MI) {
  if (!MI.hasOneMemOperand())
    return nullptr;
  const MachineMemOperand &MMO = **MI.memoperands_begin();
  if (!MMO.isLoad() || MMO.isStore() || MMO.isVolatile() || MMO.isAtomic() ||
      MMO.getSize() != LocationSize::precise(PointerBytes) ||
      MMO.getAlign() < Align(PointerBytes) || !MMO.getValue())
    return nullptr;
  const auto *GV =
      dyn_cast<GlobalVariable>(getUnderlyingObject(MMO.getValue()));
  // Not one another object may preempt (default visibility in a shared
  // object): the dynamic linker could bind the load to its table.
  if (!GV || !GV->isConstant() || !GV->hasDefinitiveInitializer() ||
      !GV->isDSOLocal() || GV->isThreadLocal())
    return nullptr;
  return GV;
}

/// Appends the leaves of an initialiser of nested arrays and structs.
static void collectLeaves(const Constant *C,
                          SmallVectorImpl<const Constant *> &Leaves) {
  if (isa<ConstantArray>(C) || isa<ConstantStruct>(C)) {
    for (const Use &Op : C->operands())
      collectLeaves(cast<Constant>(Op.get()), Leaves);
    return;
  }
  Leaves.push_back(C);
}

/// Whether every entry of Table is a function whose calls this module
/// counts: each returns through the counter's check.
bool X86RSBStuff::holdsOnlyCountedFunctions(const GlobalVariable &Table) const {
  SmallVector<const Constant *, 16> Leaves;
  collectLeaves(Table.getInitializer(), Leaves);
  return !Leaves.empty() && all_of(Leaves, [&](const Constant *C) {
    const auto *F = dyn_cast<Function>(C);
    return F && !F->isIntrinsic() &&
           classifyFunction(*F) == CalleeKind::Instrumented;
  });
}

/// The instruction that last set Reg before Call in Call's block, if any.
static const MachineInstr *definitionBefore(const MachineInstr &Call,
                                            Register Reg,
                                            const TargetRegisterInfo &TRI) {
  const MachineBasicBlock &MBB = *Call.getParent();
  for (auto I = std::next(Call.getReverseIterator()); I != MBB.rend(); ++I)
    if (I->modifiesRegister(Reg, &TRI))
      return &*I;
  return nullptr;
}

/// Where Call's target comes from: the call (or tail call) itself (`call
/// *mem`) or the plain load that set its register (%r11 for the
/// retpoline's).
const MachineInstr *X86RSBStuff::targetLoad(const MachineInstr &Call) const {
  StringRef Name = TII->getName(Call.getOpcode());
  if (Name == "CALL64m" || Name == "TAILJMPm64" || Name == "TAILJMPm64_REX")
    return &Call;
  Register Target;
  if (isRetpolineCall(Call))
    Target = Names->reg("R11");
  else if ((Name == "CALL64r" || Name == "TAILJMPr64" ||
            Name == "TAILJMPr64_REX") &&
           Call.getOperand(0).isReg())
    Target = Call.getOperand(0).getReg();
  else
    return nullptr;
  const MachineInstr *Def =
      definitionBefore(Call, Target, *MF->getSubtarget().getRegisterInfo());
  if (!Def || TII->getName(Def->getOpcode()) != "MOV64rm")
    return nullptr;
  return Def;
}

/// The counter's shift goes right before Call: the flags must be dead there
/// (the call clobbers them, as the C conventions do), and %r11 too where the
/// initial-exec form loads the counter's offset into it (then the call must
/// not take its target from %r11, as the retpoline's does).
bool X86RSBStuff::canCountTableCall(const MachineInstr &Call) const {
  MCRegister Target = isRetpolineCall(Call) ? Names->reg("R11") : MCRegister();
  // The large code model reaches the table as the GOT plus an offset, which
  // rsb-verify does not add up: it could not tell the count from a wrong one.
  if (!opts::CountTableCalls ||
      MF->getTarget().getCodeModel() == CodeModel::Large ||
      !scratchFreeAcross(Call, Target))
    return false;
  const MachineInstr *Load = targetLoad(Call);
  const GlobalVariable *Table = Load ? tableLoadedBy(*Load) : nullptr;
  if (!Table || !holdsOnlyCountedFunctions(*Table))
    return false;
  const TargetRegisterInfo *TRI = MF->getSubtarget().getRegisterInfo();
  return counterForm(*MF) != CounterForm::InitialExec ||
         !Call.readsRegister(Names->reg("R11"), TRI);
}

void X86RSBStuff::countTableCall(MachineInstr &Call) {
  accountIndirectCall(Call);
  ++NumTableCalls;
}
