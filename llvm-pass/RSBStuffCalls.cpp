//===- RSBStuffCalls.cpp - Call rewriting and credit resets ---------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// A direct call is counted, by sending it to the callee's accounting entry,
// only when the callee certainly returns through the thunk: a function
// instrumented here, or one resolved by name through `__rsb_entry.f`, which
// the link backs with a fallback when f turns out not to be instrumented.
// Every other call stays as it is, and in instrumented code a call whose
// callee may go deeper than the RSB's spare entries without the counter
// seeing it is followed by a credit reset. docs/design.md has the rules.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffDepthTable.h"
#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/RuntimeLibcalls.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

/// The X86 operand flag of a `f@GOTPCREL` reference.
static bool isGOTPCRel(const MachineOperand &MO) {
  const TargetInstrInfo &TII =
      *MO.getParent()->getMF()->getSubtarget().getInstrInfo();
  for (const auto &[Flag, Name] :
       TII.getSerializableDirectMachineOperandTargetFlags())
    if (StringRef(Name) == "x86-gotpcrel")
      return MO.getTargetFlags() == Flag;
  return false;
}

/// `call *f@GOTPCREL(%rip)` and its tail-call form, what -fno-plt makes of a
/// call to a function outside the object: the GOT slot holds f's address,
/// so retargeting the reference retargets the call.
static bool isCallThroughGOT(const MachineInstr &MI) {
  const TargetInstrInfo &TII = *MI.getMF()->getSubtarget().getInstrInfo();
  StringRef Name = TII.getName(MI.getOpcode());
  if (Name != "CALL64m" && Name != "TAILJMPm64")
    return false;
  const MachineOperand &Base = MI.getOperand(0), &Index = MI.getOperand(2);
  const MachineOperand &Disp = MI.getOperand(3);
  const TargetRegisterInfo &TRI = *MI.getMF()->getSubtarget().getRegisterInfo();
  return Base.isReg() && StringRef(TRI.getName(Base.getReg())) == "RIP" &&
         Index.isReg() && !Index.getReg() && Disp.isGlobal() &&
         isGOTPCRel(Disp);
}

MachineOperand &rsbstuff::calleeOperand(MachineInstr &Call) {
  if (Call.getOpcode() == TargetOpcode::PATCHABLE_TAIL_CALL)
    return Call.getOperand(1); // After the wrapped opcode.
  if (isCallThroughGOT(Call))
    return Call.getOperand(3);
  return Call.getOperand(0);
}

const MachineOperand &rsbstuff::calleeOperand(const MachineInstr &Call) {
  return calleeOperand(const_cast<MachineInstr &>(Call));
}

bool rsbstuff::clobbersRegister(const MachineInstr &Call, MCRegister Reg) {
  return any_of(Call.operands(), [&](const MachineOperand &MO) {
    return MO.isRegMask() && MO.clobbersPhysReg(Reg);
  });
}

bool rsbstuff::isNoReturnCall(const MachineInstr &Call) {
  const MachineBasicBlock &MBB = *Call.getParent();
  return &Call == &*MBB.getLastNonDebugInstr() && MBB.succ_empty();
}

CalleeKind X86RSBStuff::classify(const MachineOperand &Target) const {
  if (!Target.isGlobal())
    return CalleeKind::Plain;
  const auto *F = dyn_cast<Function>(Target.getGlobal());
  if (!F || F->isIntrinsic() || Target.getOffset() != 0)
    return CalleeKind::Plain;
  return classifyFunction(*F);
}

/// A call by name may reach rsb-ld's fallback, a frame of its own around
/// the callee: only calls that pass no argument on the stack may
/// (RSBStuffPrepare.cpp marks their callees). The kernel has no fallbacks.
static bool registerArguments(const Function &F) {
  return kernel::enabled() || F.hasFnAttribute(RegisterArgsAttr);
}

/// A definition in this module.
static CalleeKind classifyDefinition(const Function &F, bool Elided,
                                     const TargetMachine &TM,
                                     bool AnyArguments) {
  // A weak definition may be replaced at link time by one that has no
  // prefix, so only a definition that is certain to be used counts.
  if (!isInstrumented(F, TM) || F.isInterposable() || Elided)
    return CalleeKind::Plain;
  // An ODR (COMDAT) copy may lose to another object's copy: only a group
  // renamed for instrumented code (RSBStuffPrepare.cpp) keeps the entry
  // whichever copy the linker keeps.
  const Comdat *Group = F.getComdat();
  if (Group && !Group->getName().starts_with(EntryPrefix))
    return CalleeKind::Plain;
  // A preemptible definition (default visibility in a shared object) is
  // reached by name, like an external one: the dynamic linker then picks
  // the entry and the tail alias of the same definition. So is an ODR one.
  bool ByName = !F.isDSOLocal() || F.isWeakForLinker();
  if (ByName && (opts::Design == Variant::CallSite ||
                 !(AnyArguments || registerArguments(F))))
    return CalleeKind::Plain;
  return ByName ? CalleeKind::External : CalleeKind::Instrumented;
}

/// The C library's functions that find their caller's object from their
/// return address (RTLD_NEXT, the caller's namespace): rsb-ld's fallback
/// frame would show them its own, in a shared object maybe another
/// library's. Never called through an entry, with a depth table (which
/// lists them) or without one.
static bool readsReturnAddress(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"dlopen", "dlmopen", "dlsym", "dlvsym"}, true)
      .Default(false);
}

/// A C library function, one the backend calls on its own (_Unwind_Resume,
/// __stack_chk_fail, 128-bit and soft-float helpers: code generation may
/// add their declarations after the compile step looked at the module), or
/// the runtime's own: never instrumented, so never called through an entry.
/// So are all the functions the depth table lists, of bounded depth or not
/// (rsb-ld's fallback would put a frame of its own between them and their
/// caller: glibc's dlsym and dlopen find the calling object from their
/// return address, backtrace() would show the frame); those it bounds get
/// cap records as the known ones do: a call to a same-named function of the
/// program is then uncounted and reset, never capped (the runtime arms a
/// cap only for the C library's definition).
bool X86RSBStuff::isLibraryFunction(const Function &F) const {
  LibFunc Lib;
  return TLI->getLibFunc(F, Lib) || isRuntimeFunction(F.getName()) ||
         readsReturnAddress(F.getName()) ||
         !RTLIB::RuntimeLibcallsInfo::lookupLibcallImplName(F.getName())
              .empty() ||
         isTableListedFunction(F.getName(), F.getContext());
}

CalleeKind X86RSBStuff::classifyFunction(const Function &F,
                                         bool AnyArguments) const {
  const TargetMachine &TM = MF->getTarget();
  if (!F.isDeclarationForLinker())
    return classifyDefinition(F, isElided(F), TM, AnyArguments);
  if (opts::Design == Variant::CallSite || !opts::ExternEntries)
    return CalleeKind::Plain;
  // Code generated in the linker may call functions the compile step never
  // saw (libcalls that passes add late): the link has no fallback entry
  // for them (RSBStuffLTO.cpp).
  if (Settings.LinkTime && !F.hasFnAttribute(KnownAttr))
    return CalleeKind::Plain;
  if (F.hasExternalWeakLinkage() || F.hasFnAttribute(Attribute::ReturnsTwice) ||
      popsArguments(F.getCallingConv(), TM) || isLibraryFunction(F) ||
      !(AnyArguments || registerArguments(F)))
    return CalleeKind::Plain;
  return CalleeKind::External;
}

void X86RSBStuff::countStackArgumentCall(const MachineOperand &Target) const {
  const auto *F =
      Target.isGlobal() ? dyn_cast<Function>(Target.getGlobal()) : nullptr;
  if (F && !F->isIntrinsic() && Target.getOffset() == 0 &&
      classifyFunction(*F, /*AnyArguments=*/true) != CalleeKind::Plain)
    ++NumCallsStackArguments;
}

/// Library functions that glibc implements as leaves (IFUNC-selected
/// assembly): the elision analysis, and call rewriting where no depth table
/// was given, assume this of them. With a table, calls to them are capped
/// by the table's records instead (RSBStuffCaps.cpp), which the runtime
/// checks against the library it really runs.
static bool isShallowLibFunc(LibFunc LF) {
  switch (LF) {
  case LibFunc_memcpy:
  case LibFunc_memmove:
  case LibFunc_memset:
  case LibFunc_memcmp:
  case LibFunc_bcmp:
  case LibFunc_memchr:
  case LibFunc_memrchr:
  case LibFunc_strlen:
  case LibFunc_strnlen:
  case LibFunc_strcmp:
  case LibFunc_strncmp:
  case LibFunc_strchr:
  case LibFunc_strrchr:
  case LibFunc_strcpy:
  case LibFunc_strncpy:
  case LibFunc_stpcpy:
  case LibFunc_stpncpy:
  case LibFunc_strcat:
  case LibFunc_strncat:
  case LibFunc_strspn:
  case LibFunc_strcspn:
  case LibFunc_strpbrk:
  case LibFunc_abs:
  case LibFunc_labs:
  case LibFunc_llabs:
    return true;
  default:
    return false;
  }
}

bool rsbstuff::isShallowDeclaration(const Function &F,
                                    const TargetLibraryInfo &TLI) {
  LibFunc LF;
  return isRuntimeFunction(F.getName()) ||
         (TLI.getLibFunc(F, LF) && isShallowLibFunc(LF));
}

/// The code generator calls these by name wherever it copies, clears or
/// compares memory, with no declaration to hang a cap record on: they are
/// taken to be leaves (docs/security.md), and nothing follows a call to
/// them.
bool rsbstuff::isImplicitLibcall(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"memcpy", "memmove", "memset", "memcmp", "bcmp"}, true)
      .Default(false);
}

bool X86RSBStuff::isShallow(const MachineOperand &Target) const {
  if (Target.isSymbol())
    return isImplicitLibcall(Target.getSymbolName());
  if (Target.isMCSymbol())
    return isImplicitLibcall(Target.getMCSymbol()->getName());
  const auto *F =
      Target.isGlobal() ? dyn_cast<Function>(Target.getGlobal()) : nullptr;
  if (F && !F->isDeclarationForLinker())
    return isElided(*F);
  if (!F)
    return false;
  if (isImplicitLibcall(MF->getTarget().getSymbol(F)->getName()))
    return true;
  // Without a depth table (llc, a build without libc-depth), the hand list
  // of leaves still holds; with one, the table and its records decide.
  return depthTablePath().empty() ? isShallowDeclaration(*F, *TLI)
                                  : isRuntimeFunction(F->getName());
}

/// Control that comes back from a call the counter did not see (libc, an
/// indirect call, a setjmp returning again) may come from code that went
/// more than the RSB's spare entries deep: the entries our credit stands for
/// may be gone. A call that never returns needs nothing.
bool X86RSBStuff::needsResetAfter(const MachineInstr &Call) const {
  if (isNoReturnCall(Call))
    return false;
  const MachineOperand &Target = calleeOperand(Call);
  return classify(Target) == CalleeKind::Plain && !isShallow(Target);
}

/// The point right after Call and the CFI that belongs to it (a callee-pop
/// call is followed by its .cfi_adjust_cfa_offset).
static MachineBasicBlock::iterator afterCallCFI(MachineInstr &Call) {
  MachineBasicBlock::iterator Pos = std::next(Call.getIterator());
  while (Pos != Call.getParent()->end() && Pos->isCFIInstruction())
    ++Pos;
  return Pos;
}

void X86RSBStuff::insertReset(MachineBasicBlock &MBB,
                              MachineBasicBlock::iterator Pos) {
  DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
  BuildMI(MBB, Pos, DL, TII->get(Names->opcode("CALL64pcrel32")))
      .addSym(namedSymbol(opts::ResetHelper));
  ++NumResets;
}

/// The reset without a call: the two stores of __rsb_reset_depth
/// (RESET_CALL_DEPTH in runtime/rsb_thunks.S). For a call whose return
/// address the code reads right after it (speculative load hardening
/// compares -8(%rsp) with its post-call label), which a `call` would
/// overwrite. %r11 must be dead at Pos.
void X86RSBStuff::insertInlineReset(MachineBasicBlock &MBB,
                                    MachineBasicBlock::iterator Pos) {
  constexpr int64_t TopByte = 7, SignBit = 0x80;
  DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
  MCSymbol *Counter = namedSymbol(opts::CounterSym);
  threadLocalOperand(MBB, Pos, DL, "MOV64mi32", Counter).addImm(0);
  threadLocalOperand(MBB, Pos, DL, "MOV8mi", Counter, TopByte).addImm(SignBit);
  ++NumResets;
}

/// Clears the credit after an uncounted call: a cap or a reset, without a
/// call where the return address is read after the call. Returns the
/// number of resets.
unsigned X86RSBStuff::resetAfter(MachineInstr &Call) {
  MachineBasicBlock &MBB = *Call.getParent();
  if (!Call.getPostInstrSymbol())
    return capOrResetAfter(Call, afterCallCFI(Call));
  MCRegister Target = isRetpolineCall(Call) ? Names->reg("R11") : MCRegister();
  if (!scratchFreeAcross(Call, Target)) {
    diagnose("cannot clear the credit after a call whose return address "
             "speculative load hardening checks: %r11 is live across it");
    return 0;
  }
  insertInlineReset(MBB, afterCallCFI(Call));
  return 1;
}

/// Points Target, a direct reference to function f, at `<Prefix>f`, keeping
/// its operand flags (@PLT, @GOTPCREL). With debug info the reference goes
/// to the IR declaration RSBStuffPrepare.cpp made for that symbol, which
/// carries f's subprogram: the call keeps its DW_TAG_call_site entry.
void X86RSBStuff::retarget(MachineOperand &Target, StringRef Prefix) {
  const auto &F = cast<Function>(*Target.getGlobal());
  unsigned Flags = Target.getTargetFlags();
  MCSymbol *Sym = symbolFor(Prefix, F);
  if (const Function *Decl = F.getParent()->getFunction(Sym->getName());
      Decl && Decl->getSubprogram())
    Target.ChangeToGA(Decl, 0, Flags);
  else
    Target.ChangeToMCSymbol(Sym, Flags);
}

/// Sends direct calls to instrumented callees to their accounting entries
/// (in every function, instrumented or not: a counted call is matched by the
/// callee's thunk return whoever the caller is) and, in instrumented
/// functions, counts indirect calls through constant tables of instrumented
/// functions or whose target carries the mark, and clears the credit after
/// calls the counter cannot see.
unsigned X86RSBStuff::rewriteCalls(bool Instrumented, unsigned &Resets) {
  unsigned Redirected = 0;
  SmallVector<MachineInstr *, 4> Indirect;
  for (MachineBasicBlock &MBB : *MF) {
    for (MachineInstr &MI : make_early_inc_range(MBB)) {
      if (!MI.isCall() || MI.isReturn() || MI.getNumOperands() == 0)
        continue;
      MachineOperand &Target = calleeOperand(MI);
      CalleeKind Kind = classify(Target);
      // A call that never returns (abort, exit) needs no reset: nothing
      // comes back to clear. One to an instrumented callee still goes to
      // its entry, as rsb-verify expects of every call to an instrumented
      // function: the count stands for the RSB entry the call really
      // pushed, which no return ever takes.
      if (Kind == CalleeKind::Plain)
        countStackArgumentCall(Target);
      if (isNoReturnCall(MI) && Kind == CalleeKind::Plain)
        continue;
      if (Kind != CalleeKind::Plain) {
        if (opts::Design == Variant::CallSite)
          accountAtCallSite(MI);
        else
          retarget(Target, EntryPrefix);
        ++Redirected;
      } else if (Instrumented && canCountTableCall(MI)) {
        countTableCall(MI);
        ++Redirected;
      } else if (Instrumented && canCountIndirect(MI)) {
        Indirect.push_back(&MI); // Splits the block: after the walk.
      } else if (Instrumented && opts::ResetCredit && needsResetAfter(MI)) {
        Resets += resetAfter(MI);
      }
    }
  }
  for (MachineInstr *MI : Indirect)
    countIndirectCall(*MI);
  if (opts::ResetCredit)
    Resets += Indirect.size();
  return Redirected;
}

/// An exception reaches its landing pad after the unwinder's own calls and
/// returns, none of which the counter saw.
unsigned X86RSBStuff::resetAtLandingPads() {
  unsigned Resets = 0;
  for (MachineBasicBlock &MBB : *MF) {
    if (!MBB.isEHPad())
      continue;
    insertReset(MBB, MBB.SkipPHIsLabelsAndDebug(MBB.begin()));
    ++Resets;
  }
  return Resets;
}

/// XRay's sleds and -fpatchable-function-entry's NOPs exist to be patched
/// at run time, at any moment, into calls to code the counter cannot see (a
/// tracer, XRay's handlers) or, for XRay's exit sled, into a jump to a
/// trampoline that returns with a plain `ret` (a `retq` that XRay owns and
/// restores when unpatched). So the credit is cleared after the entry's
/// sled or NOPs, and before the exit and tail-call sleds. The exit sled's
/// plain `ret` ends a counted call: __rsb_tail_account accounts it first,
/// as the return thunk would (a reset alone would not: a chain of such
/// returns would each spend an RSB entry nobody vouched for). (Custom event
/// sleds are calls without a target: the reset after every such call covers
/// them.)
unsigned X86RSBStuff::resetAroundPatchableSleds() {
  unsigned Resets = 0;
  for (MachineBasicBlock &MBB : *MF) {
    for (MachineInstr &MI : make_early_inc_range(MBB)) {
      switch (MI.getOpcode()) {
      case TargetOpcode::PATCHABLE_FUNCTION_ENTER:
        insertReset(MBB, std::next(MI.getIterator()));
        break;
      case TargetOpcode::PATCHABLE_RET:
        if (!CurrentElided)
          BuildMI(MBB, MI, MI.getDebugLoc(),
                  TII->get(Names->opcode("CALL64pcrel32")))
              .addSym(namedSymbol(opts::TailAccount));
        insertReset(MBB, MI.getIterator());
        break;
      case TargetOpcode::PATCHABLE_TAIL_CALL: {
        StringRef Wrapped = TII->getName(MI.getOperand(0).getImm());
        callBeforeTailCall(MI, namedSymbol(opts::ResetHelper),
                           Wrapped.ends_with("_CC"));
        ++NumResets;
        break;
      }
      default:
        continue;
      }
      ++Resets;
    }
  }
  return Resets;
}

/// Inserts `Opcode` on the thread-local Sym+Offset before Pos, in the
/// function's counter form, and returns it for its other operands. Scratch
/// (by default %r11) must be dead there: the initial-exec form loads Sym's
/// offset into it.
MachineInstrBuilder X86RSBStuff::threadLocalOperand(
    MachineBasicBlock &MBB, MachineBasicBlock::iterator Pos, const DebugLoc &DL,
    StringRef Opcode, MCSymbol *Sym, int64_t Offset, MCRegister Scratch) {
  Register FS = Names->reg("FS");
  Register R11 = Scratch ? Register(Scratch) : Register(Names->reg("R11"));
  if (counterForm(*MF) == CounterForm::InitialExec) {
    BuildMI(MBB, Pos, DL, TII->get(Names->opcode("MOV64rm")), R11)
        .addReg(Names->reg("RIP"))
        .addImm(1)
        .addReg(0)
        .addSym(Sym, targetFlag("x86-gottpoff"))
        .addReg(0);
    return BuildMI(MBB, Pos, DL, TII->get(Names->opcode(Opcode)))
        .addReg(R11)
        .addImm(1)
        .addReg(0)
        .addImm(Offset)
        .addReg(FS);
  }
  auto MIB = BuildMI(MBB, Pos, DL, TII->get(Names->opcode(Opcode)))
                 .addReg(0)
                 .addImm(1)
                 .addReg(0)
                 .addSym(Sym, targetFlag("x86-tpoff"));
  // The displacement; the implicit operands (the flags) come last.
  MIB->getOperand(3).setOffset(Offset);
  return MIB.addReg(FS);
}

/// Inserts `Opcode $5, counter` (SAR64mi or SHL64mi) before Pos. %r11 and
/// the flags must be dead there.
void X86RSBStuff::shiftCounter(MachineBasicBlock &MBB,
                               MachineBasicBlock::iterator Pos,
                               const DebugLoc &DL, StringRef Opcode) {
  threadLocalOperand(MBB, Pos, DL, Opcode, namedSymbol(opts::CounterSym))
      .addImm(5);
}

/// The call-site design: the caller counts, right before the call. The
/// flags are dead there (a call clobbers them and passes nothing in them);
/// the initial-exec form's scratch register is one the call clobbers and
/// passes nothing in: %r11, or %r10 where the convention passes an
/// argument in %r11 (preserve_none).
void X86RSBStuff::accountAtCallSite(MachineInstr &Call) {
  const TargetRegisterInfo *TRI = MF->getSubtarget().getRegisterInfo();
  auto FreeAtCall = [&](MCRegister Reg) {
    return clobbersRegister(Call, Reg) && !Call.readsRegister(Reg, TRI);
  };
  MCRegister Scratch;
  for (StringRef Name : {"R11", "R10"})
    if (!Scratch && FreeAtCall(Names->reg(Name)))
      Scratch = Names->reg(Name);
  if (!Scratch) {
    diagnose("cannot count a call at its site: it passes arguments in both "
             "%r10 and %r11, or keeps them");
    return;
  }
  threadLocalOperand(*Call.getParent(), Call, Call.getDebugLoc(), "SAR64mi",
                     namedSymbol(opts::CounterSym), 0, Scratch)
      .addImm(5);
}
