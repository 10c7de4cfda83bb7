//===- RSBStuffColdCode.cpp - Compact accounting where code is cold -------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The in-place return check (`shlq $5, %fs:...; je __rsb_refill_return;
// ret`, 17 bytes where a `ret` was 1) and the mark check of an indirect call
// (about 45 bytes) each save a few instructions when they run. Where they
// seldom run, their bytes cost more than they save: the text size that the
// Linux call depth tracking series was first criticised for. So code the
// compiler knows to be cold takes compact forms, and hot code keeps the
// fast ones:
//  - a cold return jumps to the in-place check of its function's hottest
//    return (a 2-byte `jmp` when it is near), or, in a function with none,
//    to the return thunk: the same shift and refill, one `jmp` more;
//  - an indirect call that a profile says is cold is left uncounted and
//    followed by a reset, as in code optimised for size: it then costs a
//    refill, only when it runs. The static estimate alone does not decide
//    that (-x86-rsb-stuff-cold-indirect-calls): it is wrong often enough
//    that SQLite made 244,074 refills instead of 379 (docs/performance.md).
//  - an indirect call that only the static estimate calls cold keeps its
//    mark check, but calls the runtime's shared copy of it (a call and a
//    `je`, 7 bytes instead of 34 in place, four instructions more when it
//    runs; RSBStuffIndirectCalls.cpp): a wrong estimate then costs
//    instructions, never refills.
// All forms are accounted exactly as the hot ones (docs/design.md).
//
// Cold is a block that LLVM's profile-guided size optimisation would
// optimise for size (with a profile), or, estimated without one, a block
// that runs less than once per -x86-rsb-stuff-cold-ratio entries of its
// function (0 turns the estimate off). A function that PGSO optimises for
// size as a whole is treated as -Os code. The frequencies are read before
// the pass changes the function (the mark check splits blocks), and kept
// per instruction.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/CodeGen/LazyMachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/LivePhysRegs.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/MachineSizeOpts.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using namespace rsbstuff;

#define DEBUG_TYPE "x86-rsb-stuff"

static cl::opt<unsigned> ColdRatio(
    "x86-rsb-stuff-cold-ratio",
    cl::desc("A block that runs less than once per N entries of its function "
             "(static estimate) takes the compact return and indirect-call "
             "forms (0: only profile data and size attributes decide)"),
    cl::init(8));

static cl::opt<bool> ColdIndirectCalls(
    "x86-rsb-stuff-cold-indirect-calls",
    cl::desc("Also leave indirect calls in blocks that only the static "
             "estimate calls cold (-x86-rsb-stuff-cold-ratio) uncounted, "
             "with a reset: smaller, but each costs a refill when it runs"),
    cl::init(false));

/// An indirect call or tail call.
static bool isIndirectCall(const MachineInstr &MI) {
  if (!MI.isCall() || MI.getNumOperands() == 0)
    return false;
  const MachineOperand &Target = MI.getOperand(0);
  return !Target.isGlobal() || isRetpolineCall(MI);
}

/// Whether the function has something whose form the frequencies decide:
/// returns to share a check among, or indirect calls to check.
static bool hasColdCandidates(const MachineFunction &MF) {
  unsigned Returns = 0;
  for (const MachineBasicBlock &MBB : MF)
    for (const MachineInstr &MI : MBB)
      if ((MI.isReturn() && !MI.isCall() && ++Returns > 1) ||
          isIndirectCall(MI))
        return true;
  return false;
}

/// Reads the block frequencies of the function before anything changes it.
void X86RSBStuff::findColdCode() {
  ColdSites.clear();
  SharedCheckSites.clear();
  ReturnFrequency.clear();
  CurrentColdFunction = false;
  const Function &F = MF->getFunction();
  if (F.hasOptSize())
    return; // Compact everywhere already.
  ProfileSummaryInfo *PSI =
      &getAnalysis<ProfileSummaryInfoWrapperPass>().getPSI();
  bool Profile = PSI->hasProfileSummary();
  if (F.hasFnAttribute(Attribute::Cold)) {
    CurrentColdFunction = true;
    return;
  }
  if (!Profile && (ColdRatio == 0 || !hasColdCandidates(*MF)))
    return;
  MachineBlockFrequencyInfo &MBFI =
      getAnalysis<LazyMachineBlockFrequencyInfoPass>().getBFI();
  if (Profile && shouldOptimizeForSize(MF, PSI, &MBFI)) {
    CurrentColdFunction = true;
    return;
  }
  for (const MachineBasicBlock &MBB : *MF) {
    double Frequency = MBFI.getBlockFreqRelativeToEntryBlock(&MBB);
    bool ByEstimate = ColdRatio != 0 && Frequency * ColdRatio < 1.0;
    bool ByProfile = Profile && shouldOptimizeForSize(&MBB, PSI, &MBFI);
    for (const MachineInstr &MI : MBB) {
      if (MI.isReturn() && !MI.isCall())
        ReturnFrequency[&MI] = Frequency;
      bool Return = MI.isReturn() && !MI.isCall();
      if ((Return && (ByEstimate || ByProfile)) ||
          (isIndirectCall(MI) &&
           (ByProfile || (ByEstimate && ColdIndirectCalls))))
        ColdSites.insert(&MI);
      else if (isIndirectCall(MI) && !MI.isReturn() && ByEstimate)
        SharedCheckSites.insert(&MI);
    }
  }
}

/// Sends each cold return of Cold to the in-place check of the hottest
/// return in the function (in its section), which starts a block of its own
/// for the jump to land on: the check is then the same bytes wherever the
/// function returns from. Without such a return (the function's sections
/// are split, or every return is cold) the hottest cold return keeps its
/// check for the others, or, across sections, each jumps to the thunk.
void X86RSBStuff::lowerColdReturns(ArrayRef<MachineInstr *> Cold) {
  auto Hotter = [&](const InlineCheck &A, const InlineCheck &B) {
    return ReturnFrequency.lookup(A.Ret) < ReturnFrequency.lookup(B.Ret);
  };
  // The hottest first: where one keeps its check, it is that one.
  SmallVector<MachineInstr *, 8> Sorted(Cold);
  llvm::stable_sort(Sorted, [&](MachineInstr *A, MachineInstr *B) {
    return ReturnFrequency.lookup(A) > ReturnFrequency.lookup(B);
  });
  for (MachineInstr *Ret : Sorted) {
    MachineBasicBlock &MBB = *Ret->getParent();
    const InlineCheck *Shared = nullptr;
    for (const InlineCheck &Check : InlineChecks)
      if (Check.Ret->getParent()->getSectionID() == MBB.getSectionID() &&
          (!Shared || Hotter(*Shared, Check)))
        Shared = &Check;
    if (!Shared) {
      if (MF->hasBBSections()) {
        lowerReturnToThunk(*Ret);
        ++NumColdReturnsToThunk;
        continue;
      }
      checkReturnInline(*Ret);
      continue;
    }
    MachineBasicBlock *Target = sharedCheckBlock(*Shared);
    BuildMI(MBB, *Ret, Ret->getDebugLoc(), TII->get(Names->opcode("JMP_1")))
        .addMBB(Target);
    MBB.addSuccessor(Target);
    Ret->eraseFromParent();
    ++NumColdReturnsShared;
  }
}

/// The block that starts with Check's first instruction, split off its
/// return block (which falls through into it) the first time.
MachineBasicBlock *X86RSBStuff::sharedCheckBlock(const InlineCheck &Check) {
  MachineBasicBlock &MBB = *Check.First->getParent();
  if (Check.First == &MBB.front())
    return &MBB;
  MachineBasicBlock *Tail = MF->CreateMachineBasicBlock(MBB.getBasicBlock());
  MF->insert(std::next(MBB.getIterator()), Tail);
  Tail->splice(Tail->end(), &MBB, Check.First->getIterator(), MBB.end());
  MBB.addSuccessor(Tail);
  if (MF->getRegInfo().tracksLiveness())
    fullyRecomputeLiveIns({Tail});
  return Tail;
}

/// Where code size comes first: -Os, -Oz, and functions the profile says
/// are cold.
bool X86RSBStuff::optimisesForSize() const {
  return MF->getFunction().hasOptSize() || CurrentColdFunction;
}
