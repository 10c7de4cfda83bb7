//===- RSBStuffReturns.cpp - Return and tail-call lowering ----------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Every way an instrumented function can end its counted call goes through
// the runtime's accounting:
//  - by default `ret` stays, behind the return thunk's hot path in place:
//    `shlq $5` on the counter and `je __rsb_refill_return` (a cold return
//    jumps to another return's check: RSBStuffColdCode.cpp); in functions
//    optimised for size (or with -x86-rsb-stuff-return-check=thunk) it
//    becomes `jmp __rsb_return_thunk`; a function that must keep %r11 jumps
//    to __rsb_tail_account instead, which accounts the return the same way
//    and preserves every general register;
//  - a tail call to a function that returns through the thunk stays as it
//    is (never to an entry: that would count a second call), one resolved by
//    name goes to its tail alias, and one to code that may return with a
//    plain `ret` is preceded by a call that accounts that `ret` (a leaf),
//    or becomes a call from a frame of its own followed by a jump to the
//    reset (arguments in registers), or is preceded by the reset;
//  - XRay's exit sleds keep their `ret`, which XRay owns, behind the
//    accounting of __rsb_tail_account and a reset.
// Then every exit of the function is checked: one that the lowering does not
// recognise (LVI's `pop; lfence; jmp *`, a return that pops its arguments)
// is an error, never a silently unaccounted return.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetFrameLowering.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDwarf.h"

using namespace llvm;
using namespace rsbstuff;

/// Refills the RSB, credits the counter and returns; where the inline
/// return check jumps when its shift leaves zero.
static constexpr StringLiteral RefillReturn = "__rsb_refill_return";
/// Offset of `returns` in struct rsb_stats (runtime/include/rsb_stuff.h).
static constexpr int64_t StatsReturnsOffset = 8;

static bool isConditional(const TargetInstrInfo &TII, const MachineInstr &MI) {
  return TII.getName(MI.getOpcode()).ends_with("_CC");
}

/// A tail call, or XRay's sled wrapped around one (a return, not a call).
static bool isTailCall(const MachineInstr &MI) {
  return (MI.isCall() && MI.isReturn()) ||
         MI.getOpcode() == TargetOpcode::PATCHABLE_TAIL_CALL;
}

/// The returned values (and callee-saved registers restored for the caller)
/// stay live up to Jump, which leaves the function in place of Ret.
static void keepReturnUses(const MachineInstr &Ret,
                           const MachineInstrBuilder &Jump) {
  for (const MachineOperand &MO : Ret.operands())
    if (MO.isReg() && MO.isUse())
      Jump.addReg(MO.getReg(), RegState::Implicit);
}

/// The return thunk's hot path in place of the `jmp` to it: `shlq $5`, a
/// conditional tail jump to the refill when that leaves zero, the `ret`.
/// %r11 and the flags are dead at a return (the PIC thunk uses them too).
void X86RSBStuff::checkReturnInline(MachineInstr &Ret) {
  // X86's condition codes are the ISA's own encoding (`je rel8` is 0x70 + 4).
  constexpr unsigned CondEqual = 4;
  MachineBasicBlock &MBB = *Ret.getParent();
  const DebugLoc &DL = Ret.getDebugLoc();
  MachineBasicBlock::iterator Before = Ret.getIterator() == MBB.begin()
                                           ? MBB.end()
                                           : std::prev(Ret.getIterator());
  if (Settings.Stats) // What the thunk counts on its way in.
    threadLocalOperand(MBB, Ret, DL, "INC64m", namedSymbol(opts::StatsSym),
                       StatsReturnsOffset);
  shiftCounter(MBB, Ret, DL, "SHL64mi");
  auto Jump = BuildMI(MBB, Ret, DL, TII->get(Names->opcode("TAILJMPd64_CC")))
                  .addSym(namedSymbol(RefillReturn))
                  .addImm(CondEqual);
  keepReturnUses(Ret, Jump);
  // Where cold returns of the function may jump to (RSBStuffColdCode.cpp).
  MachineInstr &First = Before == MBB.end() ? MBB.front() : *std::next(Before);
  InlineChecks.push_back({&First, &Ret});
}

/// Whether this function's returns check the counter in place rather than
/// in the thunk: by default everywhere but where size comes first.
bool X86RSBStuff::returnsInline() const {
  if (opts::Design == Variant::RetThunk || keepsR11AtExit())
    return false;
  switch (Settings.ReturnForm) {
  case ReturnCheck::Inline:
    return true;
  case ReturnCheck::Thunk:
    return false;
  case ReturnCheck::Auto:
    break;
  }
  return !optimisesForSize();
}

/// The ret-thunk design: only the returns change.
bool X86RSBStuff::lowerReturnsOnly() {
  unsigned Returns = 0, TailCalls = 0;
  bool Ok = lowerExits(/*WithTailCalls=*/false, Returns, TailCalls);
  NumReturnsLowered += Returns;
  return Ok;
}

/// Runs before TailCall, whose target may return with a plain `ret`: that
/// ret ends a call our caller counted, so it is accounted here, as the
/// return thunk would. A target deeper than a leaf may also take the
/// entries of the remaining credit, so the credit is then cleared too. (A
/// reset alone would not do: in a recursion through such tail calls, each
/// plain ret would spend an RSB entry no check vouched for.)
void X86RSBStuff::accountTailCall(MachineInstr &TailCall) {
  bool Conditional = isConditional(*TII, TailCall);
  // A conditional tail call (`jcc f`) still needs its flags.
  std::string Account = opts::TailAccount + (Conditional ? "_flags" : "");
  SmallVector<MCSymbol *, 2> Helpers = {namedSymbol(Account)};
  bool Clear = opts::ResetCredit && !isShallow(calleeOperand(TailCall));
  // A C library function of bounded depth only caps the credit
  // (RSBStuffCaps.cpp). The cap goes first: rsb-verify wants the jump right
  // after the accounting, and capping before the shift only credits less.
  const GlobalVariable *Record =
      Clear ? capRecord(calleeOperand(TailCall)) : nullptr;
  if (Record && !canCapBefore(TailCall))
    Record = nullptr;
  if (Clear && !Record && canCallFromFrame(TailCall)) {
    callFromFrame(TailCall);
    ++NumResets;
    return;
  }
  if (Clear && !Record) {
    // The reset helper keeps the flags a conditional tail call needs.
    Helpers.push_back(namedSymbol(opts::ResetHelper));
    ++NumResets;
  }
  if (Record)
    insertCap(*TailCall.getParent(), TailCall, *Record);
  callBeforeTailCall(TailCall, Helpers, Conditional);
}

/// A direct, unconditional tail call to a function that every call of the
/// module passes its arguments in registers (RSBStuffPrepare.cpp): one more
/// return address on the stack moves none of them.
bool X86RSBStuff::canCallFromFrame(const MachineInstr &TailCall) const {
  const MachineOperand &Target = calleeOperand(TailCall);
  const auto *F =
      Target.isGlobal() ? dyn_cast<Function>(Target.getGlobal()) : nullptr;
  return TII->getName(TailCall.getOpcode()) == "TAILJMPd64" && F &&
         Target.getOffset() == 0 && F->hasFnAttribute(RegisterArgsAttr);
}

/// `lea Offset(%rsp), %rsp` before MI: moves the stack pointer and keeps the
/// flags; with CFAFromSP the unwinder hears of it.
void X86RSBStuff::moveStackPointer(MachineInstr &MI, int64_t Offset,
                                   bool CFAFromSP) {
  MachineBasicBlock &MBB = *MI.getParent();
  const DebugLoc &DL = MI.getDebugLoc();
  Register SP = Names->reg("RSP");
  BuildMI(MBB, MI, DL, TII->get(Names->opcode("LEA64r")), SP)
      .addReg(SP)
      .addImm(1)
      .addReg(0)
      .addImm(Offset)
      .addReg(0);
  if (CFAFromSP && MF->needsFrameMoves())
    BuildMI(MBB, MI, DL, TII->get(TargetOpcode::CFI_INSTRUCTION))
        .addCFIIndex(MF->addFrameInst(
            MCCFIInstruction::createAdjustCfaOffset(nullptr, -Offset)));
}

/// The tail call to code that may go deep, and call back into instrumented
/// code that refills, becomes what rsb-ld's fallback does: a call from a
/// frame of its own, then the reset, whose `ret` (over an entry it pushes
/// at a trap: f's plain returns may have taken the last one) ends the call
/// our caller counted with no credit left:
///
///   lea -8(%rsp), %rsp       # the callee's stack stays 16-byte aligned
///   call f
///   lea 8(%rsp), %rsp
///   jmp __rsb_reset_depth
///
/// Clearing the credit before the jump instead (the other tail calls) lets
/// a refill inside f hand out credit that f's own plain returns then spend.
void X86RSBStuff::callFromFrame(MachineInstr &TailCall) {
  MachineBasicBlock &MBB = *TailCall.getParent();
  const DebugLoc &DL = TailCall.getDebugLoc();
  // The frame has been torn down: the CFA is %rsp-based.
  moveStackPointer(TailCall, -8, /*CFAFromSP=*/true);
  auto Call =
      BuildMI(MBB, TailCall, DL, TII->get(Names->opcode("CALL64pcrel32")))
          .add(calleeOperand(TailCall));
  for (const MachineOperand &MO : TailCall.operands())
    if (MO.isReg() && MO.isUse() && MO.isImplicit())
      Call.addReg(MO.getReg(), RegState::Implicit);
  Call.addRegMask(MF->getSubtarget().getRegisterInfo()->getCallPreservedMask(
      *MF, CallingConv::C));
  moveStackPointer(TailCall, 8, /*CFAFromSP=*/true);
  auto Jump = BuildMI(MBB, TailCall, DL, TII->get(Names->opcode("TAILJMPd64")))
                  .addSym(namedSymbol(opts::ResetHelper));
  keepReturnUses(TailCall, Jump);
  TailCall.eraseFromParent();
}

/// Calls Helpers, in order, right before TailCall. An unconditional tail call
/// has torn the frame down, but after a conditional one that is not taken the
/// function goes on, and a function without calls may keep locals in the
/// red zone below %rsp, which the call's return address would overwrite:
/// step over the red zone with flag-preserving LEAs (and tell the unwinder
/// when the CFA is %rsp-based).
void X86RSBStuff::callBeforeTailCall(MachineInstr &TailCall,
                                     ArrayRef<MCSymbol *> Helpers,
                                     bool Conditional) {
  MachineBasicBlock &MBB = *TailCall.getParent();
  const DebugLoc &DL = TailCall.getDebugLoc();
  bool SkipRedZone =
      Conditional && !MF->getFunction().hasFnAttribute(Attribute::NoRedZone);
  bool CFAFromSP = !MF->getSubtarget().getFrameLowering()->hasFP(*MF);
  constexpr int64_t RedZone = 128;
  if (SkipRedZone)
    moveStackPointer(TailCall, -RedZone, CFAFromSP);
  for (MCSymbol *Helper : Helpers)
    BuildMI(MBB, TailCall, DL, TII->get(Names->opcode("CALL64pcrel32")))
        .addSym(Helper);
  if (SkipRedZone)
    moveStackPointer(TailCall, RedZone, CFAFromSP);
}

/// `ret` -> `jmp <return thunk>`; in a function that must keep %r11 at its
/// return, the thunk that preserves it.
bool X86RSBStuff::lowerReturn(MachineInstr &Ret) {
  StringRef Name = TII->getName(Ret.getOpcode());
  if (Name != "RET64") {
    diagnose("cannot route return '" + Name + "' through the return thunk");
    return false;
  }
  if (CurrentInlineReturns && isCold(Ret)) {
    ColdReturns.push_back(&Ret); // Once the hot ones have their checks.
    return true;
  }
  if (CurrentInlineReturns) {
    checkReturnInline(Ret);
    return true;
  }
  lowerReturnToThunk(Ret);
  return true;
}

void X86RSBStuff::lowerReturnToThunk(MachineInstr &Ret) {
  StringRef Thunk = keepsR11AtExit() ? StringRef(opts::TailAccount)
                                     : StringRef(opts::ReturnThunk);
  auto Jump = BuildMI(*Ret.getParent(), Ret, Ret.getDebugLoc(),
                      TII->get(Names->opcode("TAILJMPd64")))
                  .addSym(namedSymbol(Thunk));
  keepReturnUses(Ret, Jump);
  Ret.eraseFromParent();
}

void X86RSBStuff::lowerTailCall(MachineInstr &TailCall) {
  MachineOperand &Target = calleeOperand(TailCall);
  switch (classify(Target)) {
  case CalleeKind::Instrumented:
    break;
  case CalleeKind::External:
    retarget(Target, TailPrefix);
    ++NumTailCallsRetargeted;
    break;
  case CalleeKind::Plain:
    countStackArgumentCall(Target);
    // A tail call through a pointer to a marked target needs nothing.
    if (canCountIndirectTail(TailCall))
      countIndirectTailCall(TailCall);
    else
      accountTailCall(TailCall);
    ++NumTailCallsAccounted;
    break;
  }
}

bool X86RSBStuff::lowerTerminator(MachineInstr &MI, unsigned &Returns,
                                  unsigned &TailCalls) {
  // XRay's exit sled keeps its `ret` behind the accounting and the reset
  // put before it.
  if (MI.getOpcode() == TargetOpcode::PATCHABLE_RET)
    return true;
  bool IsTailCall = isTailCall(MI);
  if (CurrentElided) {
    // Nobody counted a call to this function: its returns stay plain. Only
    // a tail call to code the analysis did not foresee needs the reset.
    if (IsTailCall && opts::ResetCredit && !isShallow(calleeOperand(MI))) {
      callBeforeTailCall(MI, namedSymbol(opts::ResetHelper),
                         isConditional(*TII, MI));
      ++NumResets;
    }
    return true;
  }
  if (!IsTailCall) {
    ++Returns;
    return lowerReturn(MI);
  }
  lowerTailCall(MI);
  ++TailCalls;
  return true;
}

/// Lowers the returns and, WithTailCalls, the tail calls. They are collected
/// first: lowering one changes its block.
bool X86RSBStuff::lowerExits(bool WithTailCalls, unsigned &Returns,
                             unsigned &TailCalls) {
  // Decided once: lowering a return that keeps %r11 changes what
  // keepsR11AtExit() sees.
  CurrentInlineReturns = returnsInline();
  InlineChecks.clear();
  ColdReturns.clear();
  SmallVector<MachineInstr *, 8> Exits;
  for (MachineBasicBlock &MBB : *MF)
    for (MachineInstr &MI : MBB)
      if (MI.isReturn() && (WithTailCalls || !isTailCall(MI)))
        Exits.push_back(&MI);
  bool Ok = true;
  for (MachineInstr *MI : Exits)
    Ok &= lowerTerminator(*MI, Returns, TailCalls);
  lowerColdReturns(ColdReturns);
  return Ok;
}

/// The instruction before MI in its block, debug instructions skipped.
static const MachineInstr *previousInstr(const MachineInstr &MI) {
  const MachineBasicBlock &MBB = *MI.getParent();
  for (MachineBasicBlock::const_iterator It = MI; It != MBB.begin();)
    if (!(--It)->isDebugInstr())
      return &*It;
  return nullptr;
}

static bool callsSymbol(const MachineInstr *MI, StringRef Name) {
  if (!MI || !MI->isCall() || MI->getNumOperands() == 0)
    return false;
  const MachineOperand &Target = MI->getOperand(0);
  return Target.isMCSymbol() && Target.getMCSymbol()->getName() == Name;
}

/// The `shlq $5, counter; je __rsb_refill_return` of checkReturnInline,
/// given the `je`.
bool X86RSBStuff::isInlineCheckJump(const MachineInstr *MI) const {
  if (!MI || TII->getName(MI->getOpcode()) != "TAILJMPd64_CC" ||
      !callsSymbol(MI, RefillReturn))
    return false;
  const MachineInstr *Shift = previousInstr(*MI);
  return Shift && TII->getName(Shift->getOpcode()) == "SHL64mi";
}

/// Whether Exit, which leaves the function, goes through the accounting.
bool X86RSBStuff::isAccountedExit(const MachineInstr &Exit) const {
  // Tail calls, and the `jmp` to a return thunk that replaced each `ret`,
  // were each lowered above.
  if (isTailCall(Exit))
    return true;
  const MachineInstr *Before = previousInstr(Exit);
  if (Exit.getOpcode() == TargetOpcode::PATCHABLE_RET)
    return callsSymbol(Before, opts::ResetHelper) &&
           callsSymbol(previousInstr(*Before), opts::TailAccount);
  // The inline return check: `shlq $5, counter; je refill; ret`.
  return CurrentInlineReturns && isInlineCheckJump(Before);
}

/// After lowering, an instrumented function must not be left by a return
/// the thunk does not account, nor by an indirect branch with nowhere to go
/// inside the function (a `jmp *` that is not a jump table or an indirect
/// tail call: LVI hardening's `pop; lfence; jmp *` is one).
bool X86RSBStuff::checkExits() {
  for (const MachineBasicBlock &MBB : *MF) {
    for (const MachineInstr &MI : MBB) {
      bool Leaves = MI.isReturn() ||
                    (MI.isIndirectBranch() && !MI.isCall() && MBB.succ_empty());
      if (!Leaves || isAccountedExit(MI))
        continue;
      diagnose("leaves through '" + TII->getName(MI.getOpcode()) +
               "', which the return thunk does not account");
      return false;
    }
  }
  return true;
}
