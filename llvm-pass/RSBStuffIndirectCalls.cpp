//===- RSBStuffIndirectCalls.cpp - Counted indirect calls -----------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// An indirect call cannot be sent to its callee's accounting entry: the
// callee is only known at run time, and may return with a plain `ret`. So it
// was never counted, and the credit was cleared after it, which costs a
// refill at the next return. In an executable, every accounting entry ends
// with `sarq $5, %fs:__rsb_depth@tpoff` right before its function: ten
// bytes that encode an update of this executable's own counter, and that
// nothing but an entry puts in front of a function (docs/design.md, "Counted
// indirect calls", has the argument). The call site reads them as a mark:
//
//   movq    %rax, %r11                  the target, read once (or `movq mem`)
//   testl   $0x3f0, %r11d               never read the page before a target
//   je      .Lplain                     in the first 16 bytes of its own, nor
//   movq    -8(%r11), %r10              the vsyscall page (execute-only)
//   cmpq    __rsb_prefix_mark(%rip), %r10
//   jne     .Lplain
//   cmpw    $0x4864, -10(%r11)          the %fs and REX.W bytes of the sarq
//   je      .Lcounted
// .Lplain:
//   callq   *%r11                       as before: uncounted, then the reset
//   callq   __rsb_reset_depth
//   jmp     .Ldone
// .Lcounted:
//   sarq    $5, %fs:__rsb_depth@tpoff   the entry's own accounting, done here
//   callq   *%r11                       (f keeps its ENDBR64 under IBT)
// .Ldone:
//
// The test and the accounting are the same at every call site, so by
// default they live once in the runtime (runtime/rsb_thunks.S), whose copy
// also makes the call (`__rsb_icall_r11`): it jumps to a marked target
// after counting it, so the callee returns to the site as after the check
// in place, and calls any other target from a frame of its own and resets
// the credit after it. 5 bytes a call site (8 with the load into %r11) for
// one instruction more, the `jmp`, per counted call:
//
//   movq    %rax, %r11
//   callq   __rsb_icall_r11
//
// The frame is 16 bytes below the site's, so not where any call of the
// function passes arguments on the stack (the callee would not find them)
// or returns twice (the frame would be gone when it returns again); nor
// for a call whose pointer starts out as a capped C library function (that
// comparison stays at the site), nor under -mretpoline. Those calls keep
// the check in place, or where the block is cold by the static estimate
// (RSBStuffColdCode.cpp) call a copy that only checks and sets ZF when it
// counted the call: 23 bytes a call site instead of 57, for four
// instructions more (the call, its `ret`, the flag, the `je`):
//
//   movq    %rax, %r11
//   callq   __rsb_count_marked_r11      the check above and the sarq; ZF
//   je      .Lcounted                   when the target is marked
// .Lplain:
//   callq   *%r11
//   callq   __rsb_reset_depth
//   jmp     .Ldone
// .Lcounted:
//   callq   *%r11
// .Ldone:
//
// Statistics builds keep the in-place form, whose entries count the call
// in the same place.
//
// An indirect tail call to a marked target needs nothing: the target
// returns through the thunk to our caller, whose call was counted. So the
// check (its last test turned into `jne .Lplain`) falls into the jump, and
// any other target gets the accounting and the reset of before:
//
//   ...
//   cmpw    $0x4864, -10(%r11)
//   jne     .Lplain
//   jmpq    *%r11
// .Lplain:
//   callq   __rsb_tail_account
//   callq   __rsb_reset_depth
//   jmpq    *%r11
//
// Under -mretpoline the call is `call __llvm_retpoline_r11` (the tail call
// `jmp __llvm_retpoline_r11`), its target already in %r11: the same check
// goes in front of it.
//
// A false negative only costs the reset of before. Shared objects reach the
// counter through the GOT, which leaves no fixed bytes to compare: their
// indirect calls, and calls into their functions, stay uncounted. Functions
// optimised for size (-Os, -Oz) keep the smaller uncounted form.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/CodeGen/LivePhysRegs.h"
#include "llvm/CodeGen/MachineFrameInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"

using namespace llvm;
using namespace rsbstuff;

/// The last eight bytes of the mark, `c1 3c 25 <tpoff> 05` after the two
/// prefixes, which only the link can compute (runtime/rsb_thunks.S).
static constexpr const char *PrefixMarkSym = "__rsb_prefix_mark";
/// The two bytes in front of them: the %fs segment and REX.W prefixes.
static constexpr int64_t MarkPrefixes = 0x4864;
/// The target bits of which one at least must be set before the mark is
/// read: they are clear in the first 16 bytes of every page, where the mark
/// would lie in the page before, and at the vsyscall page's three entries
/// (0x000, 0x400, 0x800), which are execute-only. Every marked target has
/// bit 4 set, or a higher one up to 9 if its function is over-aligned
/// (docs/design.md, "The read never faults").
static constexpr int64_t MarkReadableBits = 0x3f0;
/// The runtime's copy of the check and the accounting, for %r11.
static constexpr const char *SharedMarkCheckSym = "__rsb_count_marked_r11";
/// The runtime's copy of the check that also makes the call.
static constexpr const char *IndirectCallHelperSym = "__rsb_icall_r11";
/// The thunk of -mretpoline that calls the target in %r11.
static constexpr const char *RetpolineR11Sym = "__llvm_retpoline_r11";
/// Base, scale, index, displacement, segment.
static constexpr unsigned X86MemOperands = 5;
/// X86 condition codes (the ISA's encoding, private to LLVM).
static constexpr unsigned CondEqual = 4, CondNotEqual = 5;

static cl::opt<SharedCheck> SharedMarkCheck(
    "x86-rsb-stuff-shared-mark-check",
    cl::desc("Where an indirect call's mark check (and its count) calls the "
             "runtime's shared copy instead of being in place"),
    cl::values(clEnumValN(SharedCheck::Never, "never", "always in place"),
               clEnumValN(SharedCheck::Cold, "cold",
                          "in blocks the static estimate calls cold "
                          "(-x86-rsb-stuff-cold-ratio; default)"),
               clEnumValN(SharedCheck::Always, "always",
                          "at every checked indirect call")),
    cl::init(SharedCheck::Cold));

static cl::opt<SharedCheck> SharedIndirectCall(
    "x86-rsb-stuff-shared-indirect-call",
    cl::desc("Where an indirect call that may be made from a frame of the "
             "runtime's (no stack arguments, no returns_twice call in the "
             "function) calls the runtime's copy of the check that also "
             "makes the call (__rsb_icall_r11)"),
    cl::values(clEnumValN(SharedCheck::Never, "never",
                          "nowhere (-x86-rsb-stuff-shared-mark-check decides)"),
               clEnumValN(SharedCheck::Cold, "cold",
                          "in blocks the static estimate calls cold"),
               clEnumValN(SharedCheck::Always, "always",
                          "at every such call (default)")),
    cl::init(SharedCheck::Always));

/// The register form of each indirect call or tail call the check handles,
/// by its memory form (or itself).
static StringRef registerForm(StringRef Name) {
  return StringSwitch<StringRef>(Name)
      .Cases({"CALL64r", "CALL64m"}, "CALL64r")
      .Cases({"TAILJMPr64", "TAILJMPm64"}, "TAILJMPr64")
      .Cases({"TAILJMPr64_REX", "TAILJMPm64_REX"}, "TAILJMPr64_REX")
      .Default("");
}

/// Its target is already in %r11 (X86ISelLowering's EmitLoweredIndirectThunk).
bool rsbstuff::isRetpolineCall(const MachineInstr &Call) {
  const MachineOperand &Target = Call.getOperand(0);
  return Target.isSymbol() &&
         StringRef(Target.getSymbolName()) == RetpolineR11Sym;
}

/// Only a local-exec prefix carries the mark (and only its code can check
/// one: it compares with the executable's own TP offset).
static bool marksInUse(CounterForm Form) {
  return opts::CountIndirect && Form == CounterForm::LocalExec;
}

/// Only a function whose address is taken, here or (if it is not local) in
/// another module, can be the target of an indirect call. Its prefix is
/// then placed so that F does not start a page, where the check would not
/// read the mark.
bool rsbstuff::mayBeMarkedTarget(const Function &F, CounterForm Form) {
  return marksInUse(Form) && (F.hasAddressTaken() || !F.hasLocalLinkage()) &&
         !F.hasOptSize();
}

/// Whether the checks can go into this function at all.
/// Not where code size comes first (-Os, -Oz): a checked call site takes
/// about 50 bytes more than the call and its reset.
bool X86RSBStuff::mayCheckMarks() const {
  return marksInUse(counterForm(*MF)) && !MF->hasBBSections() &&
         !optimisesForSize();
}

/// Not a call that carries a label after it (speculative load hardening's
/// return address check): the check's two paths would each need the call,
/// and the label can only be defined once.
bool X86RSBStuff::canCountIndirect(const MachineInstr &Call) const {
  if (!mayCheckMarks() || isNoReturnCall(Call) || Call.isReturn() ||
      Call.getPostInstrSymbol())
    return false;
  if (isCold(Call)) { // RSBStuffColdCode.cpp
    ++NumColdIndirectCalls;
    return false;
  }
  if (isRetpolineCall(Call))
    return scratchFreeAcross(Call, Names->reg("R11"));
  return !registerForm(TII->getName(Call.getOpcode())).empty() &&
         scratchFreeAcross(Call);
}

/// An indirect tail call goes straight to a marked target, which returns
/// through the thunk to our caller: nothing to account.
bool X86RSBStuff::canCountIndirectTail(const MachineInstr &TailCall) const {
  // The check cannot follow another terminator of the block.
  if (!mayCheckMarks() || TII->getName(TailCall.getOpcode()).ends_with("_CC") ||
      &*TailCall.getParent()->getFirstTerminator() != &TailCall)
    return false;
  if (isCold(TailCall)) {
    ++NumColdIndirectCalls;
    return false;
  }
  if (isRetpolineCall(TailCall))
    return scratchFreeBeforeTail(TailCall, Names->reg("R11"));
  return !registerForm(TII->getName(TailCall.getOpcode())).empty() &&
         scratchFreeBeforeTail(TailCall);
}

/// Makes Call `call *%r11`, with the target loaded into %r11 before it: the
/// check and the call must see the same address, or another thread could
/// store an unmarked target in between.
void X86RSBStuff::targetInR11(MachineInstr &Call) {
  if (isRetpolineCall(Call))
    return;
  MachineBasicBlock &MBB = *Call.getParent();
  const DebugLoc &DL = Call.getDebugLoc();
  Register R11 = Names->reg("R11");
  StringRef Name = TII->getName(Call.getOpcode());
  if (registerForm(Name) == Name) {
    MachineOperand &Target = Call.getOperand(0);
    if (Target.getReg() != R11)
      BuildMI(MBB, Call, DL, TII->get(Names->opcode("MOV64rr")), R11)
          .addReg(Target.getReg(), getKillRegState(Target.isKill()));
    Target.setReg(R11);
    Target.setIsKill(false);
    return;
  }
  auto Load = BuildMI(MBB, Call, DL, TII->get(Names->opcode("MOV64rm")), R11);
  for (unsigned I = 0; I < X86MemOperands; ++I)
    Load.add(Call.getOperand(I));
  Load.cloneMemRefs(Call);
  Call.dropMemRefs(*MF);
  for (unsigned I = X86MemOperands - 1; I > 0; --I)
    Call.removeOperand(I);
  Call.setDesc(TII->get(Names->opcode(registerForm(Name))));
  Call.getOperand(0).ChangeToRegister(R11, /*isDef=*/false);
}

/// The mark check from the end of MBB on: each test ends a block of its own
/// (a branch is a terminator), the last of which falls through into Plain,
/// or with IntoCounted into Counted (a tail call: the marked jump then comes
/// right after the check, where rsb-verify looks for it).
void X86RSBStuff::insertMarkCheck(MachineBasicBlock &MBB,
                                  MachineBasicBlock &Plain,
                                  MachineBasicBlock &Counted,
                                  const DebugLoc &DL, bool IntoCounted) {
  Register R10 = Names->reg("R10"), R11 = Names->reg("R11");
  MachineBasicBlock *Block = &MBB;
  auto Build = [&](StringRef Opcode) {
    return BuildMI(*Block, Block->end(), DL, TII->get(Names->opcode(Opcode)));
  };
  // Ends Block with a branch to To and goes on in a new block after it.
  auto Branch = [&](unsigned Cond, MachineBasicBlock &To,
                    MachineBasicBlock *Next = nullptr) {
    Build("JCC_1").addMBB(&To).addImm(Cond);
    Block->addSuccessor(&To);
    if (!Next) {
      Next = MF->CreateMachineBasicBlock(MBB.getBasicBlock());
      MF->insert(std::next(Block->getIterator()), Next);
    }
    Block->addSuccessor(Next);
    Block = Next;
  };
  auto AddTargetBytes = [&](MachineInstrBuilder &MIB, int64_t Offset) {
    MIB.addReg(R11).addImm(1).addReg(0).addImm(Offset).addReg(0);
  };
  Build("TEST32ri").addReg(Names->reg("R11D")).addImm(MarkReadableBits);
  Branch(CondEqual, Plain);
  auto Load = Build("MOV64rm").addReg(R10, RegState::Define);
  AddTargetBytes(Load, -8);
  Build("CMP64rm")
      .addReg(R10, RegState::Kill)
      .addReg(Names->reg("RIP"))
      .addImm(1)
      .addReg(0)
      .addSym(namedSymbol(PrefixMarkSym))
      .addReg(0);
  Branch(CondNotEqual, Plain);
  auto Prefixes = Build("CMP16mi");
  AddTargetBytes(Prefixes, -10);
  Prefixes.addImm(MarkPrefixes);
  if (IntoCounted)
    Branch(CondNotEqual, Plain, &Counted);
  else
    Branch(CondEqual, Counted, &Plain);
}

/// The runtime's check at the end of MBB: it counts a marked target's call
/// and says so in ZF; MBB branches to Counted then, and falls into Plain.
void X86RSBStuff::insertSharedMarkCheck(MachineBasicBlock &MBB,
                                        MachineBasicBlock &Plain,
                                        MachineBasicBlock &Counted,
                                        const DebugLoc &DL) {
  BuildMI(&MBB, DL, TII->get(Names->opcode("CALL64pcrel32")))
      .addSym(namedSymbol(SharedMarkCheckSym))
      .addReg(Names->reg("R11"), RegState::Implicit)
      .addReg(Names->reg("R10"), RegState::ImplicitDefine)
      .addReg(Names->reg("EFLAGS"), RegState::ImplicitDefine);
  BuildMI(&MBB, DL, TII->get(Names->opcode("JCC_1")))
      .addMBB(&Counted)
      .addImm(CondEqual);
  MBB.addSuccessor(&Counted);
  MBB.addSuccessor(&Plain);
  ++NumSharedMarkChecks;
}

/// Whether the check of Call goes to the runtime, under Policy: where the
/// static estimate calls its block cold (RSBStuffColdCode.cpp) or always;
/// never in statistics builds, whose entries also count calls, in place.
bool X86RSBStuff::sharesUnder(SharedCheck Policy,
                              const MachineInstr &Call) const {
  if (Settings.Stats)
    return false;
  switch (Policy) {
  case SharedCheck::Never:
    return false;
  case SharedCheck::Cold:
    return isColdByEstimate(Call);
  case SharedCheck::Always:
    return true;
  }
  llvm_unreachable("covered switch");
}

/// Whether the runtime's copy makes Call: by default wherever it can,
/// which is from a frame of its own, 16 bytes below the site's, so only
/// where no call of the function passes stack arguments (the callee would
/// not find them) or returns twice (the frame would be gone by then), and
/// not in a module that takes the address of a function that returns twice
/// (`(use_vfork ? vfork : fork)()`: the call through the pointer does not
/// say so; the runtime stops the C library's ones that come from
/// elsewhere); and where the copy's reset after an unmarked target is
/// wanted.
bool X86RSBStuff::sharesIndirectCall(const MachineInstr &Call) const {
  const MachineFrameInfo &MFI = MF->getFrameInfo();
  return sharesUnder(SharedIndirectCall, Call) && opts::ResetCredit &&
         !isRetpolineCall(Call) && MFI.isMaxCallFrameSizeComputed() &&
         MFI.getMaxCallFrameSize() == 0 && !MF->exposesReturnsTwice() &&
         !TakesReturnsTwiceAddress;
}

/// Makes Call (`call *%r11`) a call of the runtime's copy, which checks the
/// mark and makes the call counted, or uncounted with the reset after it.
void X86RSBStuff::callThroughRuntime(MachineInstr &Call) {
  Call.setDesc(TII->get(Names->opcode("CALL64pcrel32")));
  MachineOperand &Target = Call.getOperand(0);
  Target.ChangeToMCSymbol(namedSymbol(IndirectCallHelperSym));
  Target.setOffset(0); // the register's bits are not an offset
  MachineInstrBuilder(*MF, Call)
      .addReg(Names->reg("R11"), RegState::Implicit)
      .addReg(Names->reg("R10"), RegState::ImplicitDefine)
      .addReg(Names->reg("EFLAGS"), RegState::ImplicitDefine);
  ++NumSharedIndirectCalls;
}

/// Count new blocks, empty, placed right after MBB in this order.
static SmallVector<MachineBasicBlock *, 3> blocksAfter(MachineBasicBlock &MBB,
                                                       unsigned Count) {
  MachineFunction &MF = *MBB.getParent();
  SmallVector<MachineBasicBlock *, 3> Blocks;
  MachineFunction::iterator Next = std::next(MBB.getIterator());
  for (unsigned I = 0; I < Count; ++I) {
    Blocks.push_back(MF.CreateMachineBasicBlock(MBB.getBasicBlock()));
    MF.insert(Next, Blocks.back());
  }
  return Blocks;
}

/// Live-ins of the blocks after MBB up to Last, which the split made.
static void recomputeLiveInsAfter(MachineBasicBlock &MBB,
                                  MachineBasicBlock &Last) {
  if (!MBB.getParent()->getRegInfo().tracksLiveness())
    return;
  SmallVector<MachineBasicBlock *, 8> New;
  for (auto I = std::next(MBB.getIterator()); &*I != &Last; ++I)
    New.push_back(&*I);
  New.push_back(&Last);
  std::reverse(New.begin(), New.end());
  fullyRecomputeLiveIns(New);
}

/// Does, right before Call, the work of the entry its target's address
/// skips: the shift, and in statistics builds the calls word.
void X86RSBStuff::accountIndirectCall(MachineInstr &Call) {
  MachineBasicBlock &MBB = *Call.getParent();
  shiftCounter(MBB, Call, Call.getDebugLoc(), "SAR64mi");
  if (Settings.Stats)
    threadLocalOperand(MBB, Call, Call.getDebugLoc(), "INC64m",
                       namedSymbol(opts::StatsSym));
}

/// Splits Call's block: MBB ends with the check, then come the uncounted
/// call with its reset and the counted call, then the rest of MBB. The new
/// blocks sit in place, so the CFI state of the call carries over. When the
/// pointer starts out as a C library function with a cap record
/// (RSBStuffCaps.cpp, "default targets"), the uncounted call is made twice:
/// capped when the target is that function, reset otherwise.
void X86RSBStuff::countIndirectCall(MachineInstr &Call) {
  MachineBasicBlock &MBB = *Call.getParent();
  const DebugLoc DL = Call.getDebugLoc();
  const GlobalVariable *Record =
      opts::ResetCredit ? defaultTargetRecord(Call) : nullptr;
  targetInR11(Call);
  if (!Record && sharesIndirectCall(Call)) {
    callThroughRuntime(Call);
    ++NumIndirectChecked;
    return;
  }

  SmallVector<MachineBasicBlock *, 5> New = blocksAfter(MBB, Record ? 5 : 3);
  MachineBasicBlock *Plain = New[0], *Counted = New[New.size() - 2],
                    *Done = New.back();
  MachineBasicBlock *Capped = Record ? New[1] : nullptr,
                    *Reset = Record ? New[2] : Plain;
  Done->splice(Done->end(), &MBB, std::next(Call.getIterator()), MBB.end());
  Done->transferSuccessors(&MBB);
  Counted->splice(Counted->end(), &MBB, Call.getIterator());
  SmallVector<MachineBasicBlock *, 3> Calling = {Reset, Counted};
  if (Capped)
    Calling.push_back(Capped);
  // An invoke's calls all unwind to its landing pad.
  for (MachineBasicBlock *Succ : Done->successors())
    if (Succ->isEHPad())
      for (MachineBasicBlock *Block : Calling)
        Block->addSuccessor(Succ);
  for (MachineBasicBlock *Block : Calling)
    Block->addSuccessor(Done);
  bool Shared = sharesUnder(SharedMarkCheck, Call);
  if (Shared)
    insertSharedMarkCheck(MBB, *Plain, *Counted, DL);
  else
    insertMarkCheck(MBB, *Plain, *Counted, DL, /*IntoCounted=*/false);

  auto CallUncounted = [&](MachineBasicBlock &Block) {
    MachineInstr *PlainCall = MF->CloneMachineInstr(&Call);
    MF->copyAdditionalCallInfo(&Call, PlainCall);
    Block.push_back(PlainCall);
    if (&Block == Capped)
      insertCap(Block, Block.end(), *Record);
    else if (opts::ResetCredit)
      insertReset(Block, Block.end());
    BuildMI(Block, Block.end(), DL, TII->get(Names->opcode("JMP_1")))
        .addMBB(Done);
  };
  if (Capped) {
    insertDefaultTargetCheck(*Plain, *Record, *Reset, *Capped, DL);
    CallUncounted(*Capped);
  }
  CallUncounted(*Reset);

  if (!Shared)
    accountIndirectCall(Call);
  recomputeLiveInsAfter(MBB, *Done);
  ++NumIndirectChecked;
}

/// Splits TailCall's block: MBB ends with the check, which falls into the
/// jump to a marked target; after it come the accounting, the reset and
/// the jump to any other target (or, to the C library function the pointer
/// starts out as, the cap and the accounting).
void X86RSBStuff::countIndirectTailCall(MachineInstr &TailCall) {
  MachineBasicBlock &MBB = *TailCall.getParent();
  const DebugLoc DL = TailCall.getDebugLoc();
  const GlobalVariable *Record =
      opts::ResetCredit ? defaultTargetRecord(TailCall) : nullptr;
  targetInR11(TailCall);

  SmallVector<MachineBasicBlock *, 4> New = blocksAfter(MBB, Record ? 4 : 2);
  MachineBasicBlock *Counted = New[0], *Plain = New[1];
  MachineBasicBlock *Capped = Record ? New[2] : nullptr,
                    *Reset = Record ? New[3] : Plain;
  Counted->splice(Counted->end(), &MBB, TailCall.getIterator(), MBB.end());
  insertMarkCheck(MBB, *Plain, *Counted, DL, /*IntoCounted=*/true);

  auto JumpUncounted = [&](MachineBasicBlock &Block) {
    MachineInstr *PlainJump = MF->CloneMachineInstr(&TailCall);
    MF->copyAdditionalCallInfo(&TailCall, PlainJump);
    Block.push_back(PlainJump);
    if (&Block != Capped) {
      accountTailCall(*PlainJump);
      return;
    }
    // As before a direct tail call to a capped function: the cap first.
    insertCap(Block, PlainJump->getIterator(), *Record);
    callBeforeTailCall(*PlainJump, {namedSymbol(opts::TailAccount)},
                       /*Conditional=*/false);
  };
  if (Capped) {
    insertDefaultTargetCheck(*Plain, *Record, *Reset, *Capped, DL);
    JumpUncounted(*Capped);
  }
  JumpUncounted(*Reset);
  recomputeLiveInsAfter(MBB, *New.back());
  ++NumIndirectChecked;
}
