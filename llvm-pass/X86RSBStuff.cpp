//===- X86RSBStuff.cpp - Call depth tracking in the compiler --------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Skylake-era CPUs predict `ret` from a 16-entry Return Stack Buffer; when a
// call chain deeper than that unwinds, the RSB underflows and the prediction
// falls back to the BTB, which an attacker can train (Retbleed). Linux's
// `retbleed=stuff` counts call depth in a per-CPU word and refills the RSB
// before it can underflow, patching call sites at boot. This pass does the
// same at compile time for x86-64 ELF:
//
//  - every instrumented function f gets an accounting entry, `sarq $5` on
//    the thread's counter, right before f (or out of line when other data
//    sits there), emitted by RSBStuffStreamer.cpp from the request filed here;
//  - direct calls to functions known to be instrumented go to that entry;
//    calls to anything that may return with a plain `ret` stay uncounted
//    (RSBStuffCalls.cpp);
//  - every `ret` is accounted, in place (`shlq; je refill; ret`) or by a
//    `jmp` to the return thunk, and a tail call to code that
//    may return with a plain `ret` first accounts that return
//    (RSBStuffReturns.cpp).
//
// The safety invariant: the counter may under-count calls but must never
// over-count them. docs/design.md has the rules and their reasons.
//
// The pass runs after UnpackMachineBundles, the last X86 pass before the
// AsmPrinter, so it sees final code (RET64, TAILJMP*, CALL64pcrel32). It
// does not change the IR: RSBStuffPrepare.cpp does that before code
// generation starts.
//
//===----------------------------------------------------------------------===//

#include "X86RSBStuff.h"
#include "RSBStuffStatistics.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/LazyMachineBlockFrequencyInfo.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineRegisterInfo.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

#define DEBUG_TYPE "x86-rsb-stuff"

char X86RSBStuff::ID = 0;

static RegisterPass<X86RSBStuff>
    RegisterRSBStuff(DEBUG_TYPE, "X86 call depth tracking (rsb-stuff)");

void X86RSBStuff::getAnalysisUsage(AnalysisUsage &AU) const {
  AU.addRequired<TargetLibraryInfoWrapperPass>();
  AU.addRequired<ProfileSummaryInfoWrapperPass>();
  AU.addRequired<LazyMachineBlockFrequencyInfoPass>();
  MachineFunctionPass::getAnalysisUsage(AU);
}

unsigned X86RSBStuff::targetFlag(StringRef Name) const {
  for (const auto &[Flag, FlagName] :
       TII->getSerializableDirectMachineOperandTargetFlags())
    if (Name == FlagName)
      return Flag;
  report_fatal_error(Twine("rsb-stuff: X86 operand flag ") + Name +
                     " not found");
}

MCSymbol *X86RSBStuff::namedSymbol(const Twine &Name) const {
  return MF->getContext().getOrCreateSymbol(Name);
}

MCSymbol *X86RSBStuff::symbolFor(StringRef Prefix, const Function &F) const {
  return namedSymbol(Prefix + MF->getTarget().getSymbol(&F)->getName());
}

void X86RSBStuff::diagnose(const Twine &Message, bool Warning) const {
  const Function &F = MF->getFunction();
  F.getContext().diagnose(DiagnosticInfoUnsupported(
      F, "x86-rsb-stuff: '" + F.getName() + "' " + Message,
      DiagnosticLocation(), Warning ? DS_Warning : DS_Error));
}

CounterForm rsbstuff::counterForm(const MachineFunction &MF) {
  switch (opts::TLSForm) {
  case TLSChoice::LocalExec:
    return CounterForm::LocalExec;
  case TLSChoice::InitialExec:
    return CounterForm::InitialExec;
  case TLSChoice::Auto:
    break;
  }
  // A PIE is an executable: its counter lives in its own TLS block.
  const TargetMachine &TM = MF.getTarget();
  bool SharedObject =
      TM.isPositionIndependent() &&
      MF.getFunction().getParent()->getPIELevel() == PIELevel::Default;
  return SharedObject ? CounterForm::InitialExec : CounterForm::LocalExec;
}

/// Whether %r11, the initial-exec prefix's scratch register, carries an
/// argument or must survive the call (no_caller_saved_registers).
bool X86RSBStuff::keepsR11AtEntry() const {
  MCRegister R11 = Names->reg("R11");
  return MF->front().isLiveIn(R11) || keepsR11AtExit();
}

/// Whether %r11, which the PIC return thunk uses, must survive the return:
/// callee-saved in this function's convention, or a returned value.
bool X86RSBStuff::keepsR11AtExit() const {
  MCRegister R11 = Names->reg("R11");
  for (const MCPhysReg *CSR = MF->getRegInfo().getCalleeSavedRegs();
       CSR && *CSR; ++CSR)
    if (*CSR == R11)
      return true;
  for (const MachineBasicBlock &MBB : *MF)
    for (const MachineInstr &MI : MBB.terminators())
      if (MI.isReturn() && !MI.isCall() &&
          MI.readsRegister(R11, MF->getSubtarget().getRegisterInfo()))
        return true;
  return false;
}

static MCSymbolAttr bindingOf(const Function &F) {
  if (F.hasLocalLinkage())
    return MCSA_Invalid;
  return F.isWeakForLinker() ? MCSA_Weak : MCSA_Global;
}

static MCSymbolAttr visibilityOf(const Function &F) {
  if (F.hasHiddenVisibility())
    return MCSA_Hidden;
  if (F.hasProtectedVisibility())
    return MCSA_Protected;
  return MCSA_Invalid;
}

void rsbstuff::describeSymbols(PrefixRequest &R, const Function &F) {
  R.Binding = bindingOf(F);
  R.Visibility = visibilityOf(F);
}

/// The runtime function that shifts the counter for the entries of code
/// optimised for size (runtime/rsb_thunks.S).
static constexpr const char *CountCallSym = "__rsb_count_call";

/// Whether F's entry calls the runtime's `sarq` instead of holding it: 5
/// bytes instead of 10 (12 in shared objects), for a call and a return more
/// per call of F, where code size comes first (-Os, -Oz). Such a function is
/// never a marked target (mayBeMarkedTarget), so nothing reads its entry's
/// bytes. Statistics builds, entries that keep %r11 around the counter's
/// load, the kernel's forms, entries out of line and a counter other than
/// the runtime's (-x86-rsb-stuff-counter=, which __rsb_count_call does not
/// shift) keep the `sarq`.
static bool usesCountCall(const Function &F, const PrefixRequest &R) {
  return opts::CompactEntries && F.hasOptSize() && !R.StatsBlock &&
         !R.KeepR11 && R.Form != CounterForm::Direct &&
         R.Placement == EntryPlacement::Prefix && !R.Elided &&
         opts::CounterSym == opts::CounterSym.getDefault().getValue();
}

void X86RSBStuff::requestPrefix() {
  const Function &F = MF->getFunction();
  // f keeps the plain build's alignment: 16 bytes, none where the code is
  // optimised for size (the prefix then follows the previous function).
  if (!CurrentElided && !F.hasOptSize())
    MF->ensureAlignment(Align(16));
  PrefixRequest R;
  // The AsmPrinter aligns to the larger of the two.
  R.FunctionAlign = std::max(MF->getAlignment(), F.getAlign().valueOrOne());
  R.Function = MF->getTarget().getSymbol(&F);
  R.Entry = symbolFor(EntryPrefix, F);
  if (!F.hasLocalLinkage())
    R.TailAlias = symbolFor(TailPrefix, F);
  if (F.isWeakForLinker())
    R.BodyMarker = symbolFor(BodyPrefix, F);
  describeSymbols(R, F);
  R.Counter = namedSymbol(opts::CounterSym);
  R.StatsBlock = Settings.Stats ? namedSymbol(opts::StatsSym) : nullptr;
  R.Form = counterForm(*MF);
  R.KeepR11 = keepsR11AtEntry();
  R.Endbr = F.getParent()->getModuleFlag("cf-protection-branch") != nullptr;
  R.PrefixSize = Settings.Stats ? 32 : 16;
  R.Placement = opts::Design == Variant::CallThunks || hasDataBeforeEntry(F)
                    ? EntryPlacement::OutOfLine
                    : EntryPlacement::Prefix;
  R.OffPageStart =
      R.Placement == EntryPlacement::Prefix && mayBeMarkedTarget(F, R.Form);
  R.OwnSection = MF->getTarget().getFunctionSections() || F.hasComdat();
  R.Elided = CurrentElided;
  if (usesCountCall(F, R))
    R.CountCall = namedSymbol(CountCallSym);
  // The streamer aligns f itself, with the prefix in the padding; the
  // AsmPrinter's alignment would come in front of both. It still applies
  // an explicit alignment (aligned(N), -falign-functions), which then
  // only wastes what it wasted before.
  if (R.Placement == EntryPlacement::Prefix && !R.Elided)
    MF->setAlignment(Align(1));
  R.TailAccount = namedSymbol(opts::TailAccount);
  R.EmitCFI = MF->needsFrameMoves();
  R.Subprogram = F.getSubprogram();
  R.STI = &MF->getSubtarget();
  rsbstuff::requestPrefix(MF->getContext(), R);
}

/// Once per module: the settings and the elision analysis.
void X86RSBStuff::prepareModule(const Module &M) {
  if (SettingsModule == &M)
    return;
  SettingsModule = &M;
  Settings = settingsFor(M);
  if (!Settings.Enabled)
    return;
  if (kernel::enabled())
    prepareKernelModule(M);
  const TargetMachine &TM = MF->getTarget();
  auto &TLIWP = getAnalysis<TargetLibraryInfoWrapperPass>();
  auto CanElide = [&TM](const Function &F) {
    return isInstrumented(F, TM) && !F.isInterposable() && F.isDSOLocal() &&
           !F.isWeakForLinker();
  };
  auto IsLeafDeclaration = [&TLIWP](const Function &F) {
    return isShallowDeclaration(F, TLIWP.getTLI(F));
  };
  TakesReturnsTwiceAddress = any_of(M, [](const Function &F) {
    return F.hasFnAttribute(Attribute::ReturnsTwice) && F.hasAddressTaken();
  });
  unsigned Limit = opts::Design == Variant::Prefix ? Settings.ElideDepth : 0;
  Depth = std::make_unique<CallDepth>(Limit, CanElide, IsLeafDeclaration);
}

void X86RSBStuff::remarkElided() {
  MachineOptimizationRemarkEmitter ORE(*MF, nullptr);
  ORE.emit([&] {
    return MachineOptimizationRemark(DEBUG_TYPE, "Elided",
                                     MF->getFunction().getSubprogram(),
                                     &MF->front())
           << "'" << MF->getName()
           << "' needs no accounting: its call subtree fits the RSB's spare "
              "entries";
  });
}

void X86RSBStuff::remarkSkipped(StringRef Reason) {
  MachineOptimizationRemarkEmitter ORE(*MF, nullptr);
  ORE.emit([&] {
    return MachineOptimizationRemarkMissed(DEBUG_TYPE, "NotInstrumented",
                                           MF->getFunction().getSubprogram(),
                                           &MF->front())
           << "'" << MF->getName() << "' not instrumented: " << Reason;
  });
}

void X86RSBStuff::remarkInstrumented(unsigned Calls, unsigned Returns,
                                     unsigned TailCalls, unsigned Resets) {
  MachineOptimizationRemarkEmitter ORE(*MF, nullptr);
  ORE.emit([&] {
    return MachineOptimizationRemark(DEBUG_TYPE, "Instrumented",
                                     MF->getFunction().getSubprogram(),
                                     &MF->front())
           << "'" << MF->getName()
           << "' instrumented: " << ore::NV("Calls", Calls)
           << " calls redirected, " << ore::NV("Returns", Returns)
           << " returns lowered, " << ore::NV("TailCalls", TailCalls)
           << " tail calls, " << ore::NV("Resets", Resets) << " credit resets";
  });
}

/// Instruments the current function, which has no reason to be left out.
bool X86RSBStuff::instrument() {
  const Function &F = MF->getFunction();
  findColdCode();
  unsigned Resets = 0;
  unsigned Calls = rewriteCalls(/*Instrumented=*/true, Resets);
  NumCallsRedirected += Calls;
  if (opts::ResetCredit)
    Resets += resetAtLandingPads();
  CurrentElided = isElided(F);
  Resets += resetAroundPatchableSleds();
  unsigned Returns = 0, TailCalls = 0;
  if (!lowerExits(/*WithTailCalls=*/true, Returns, TailCalls))
    return true;
  NumReturnsLowered += Returns;
  if (!CurrentElided && !checkExits())
    return true;
  if (opts::Design != Variant::CallSite)
    requestPrefix();
  if (CurrentElided) {
    ++NumElided;
    remarkElided();
    return true;
  }
  ++NumInstrumented;
  remarkInstrumented(Calls, Returns, TailCalls, Resets);
  return true;
}

/// The prefix streamer takes each function's request when the AsmPrinter
/// emits the function; without an AsmPrinter (MIR output) nobody does.
bool X86RSBStuff::doFinalization(Module &) {
  if (LastContext)
    dropPendingRequest(*LastContext);
  LastContext = nullptr;
  return false;
}

bool X86RSBStuff::runOnMachineFunction(MachineFunction &Fn) {
  MF = &Fn;
  LastContext = &Fn.getContext();
  ColdSites.clear();
  CurrentColdFunction = false;
  prepareModule(*Fn.getFunction().getParent());
  if (!Settings.Enabled)
    return false;
  TII = Fn.getSubtarget().getInstrInfo();
  TLI = &getAnalysis<TargetLibraryInfoWrapperPass>().getTLI(Fn.getFunction());
  Names = &X86Names::get(*TII, *Fn.getSubtarget().getRegisterInfo());

  if (kernel::enabled())
    return runKernel();
  const Function &F = Fn.getFunction();
  std::string Refusal = refusalReason(F, Fn.getTarget());
  if (!Refusal.empty()) {
    diagnose("cannot be instrumented: " + Refusal +
             "; leave it out with RSB_NOSTUFF (rsb_stuff.h) or "
             "-x86-rsb-stuff-skip=" +
             F.getName());
    return false;
  }
  StringRef Reason = skipReason(F);
  if (opts::Design == Variant::RetThunk)
    return Reason.empty() && lowerReturnsOnly();
  if (Reason.empty())
    return instrument();
  ++NumSkipped;
  remarkSkipped(Reason);
  if (F.hasFnAttribute(ResolverAttr))
    return false;
  unsigned Resets = 0;
  unsigned Calls = rewriteCalls(/*Instrumented=*/false, Resets);
  NumCallsRedirected += Calls;
  return Calls != 0;
}
