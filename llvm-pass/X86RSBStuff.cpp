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
//  - every instrumented function f gets a 16-byte prefix ending at its entry
//    whose last instruction is `sarq $5` on the thread's counter (emitted by
//    RSBStuffStreamer.cpp from the request filed here);
//  - direct calls to functions known to be instrumented go to that prefix;
//    calls to anything that may return with a plain `ret` stay uncounted;
//  - every `ret` becomes `jmp <return thunk>`; the runtime's thunk shifts the
//    counter back and refills the RSB when it runs out;
//  - a tail call to code that may return with a plain `ret` first calls the
//    runtime's tail accounting helper, because that `ret` ends a call this
//    function's callers counted.
//
// The safety invariant: the counter may under-count calls but must never
// over-count them. docs/design.md has the rules and their reasons.
//
// The pass runs after UnpackMachineBundles, the last X86 pass before the
// AsmPrinter, so it sees final code (RET64, TAILJMP*, CALL64pcrel32).
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Pass.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

#define DEBUG_TYPE "x86-rsb-stuff"

STATISTIC(NumInstrumented, "Functions given an accounting prefix");
STATISTIC(NumSkipped, "Functions left without a prefix");
STATISTIC(NumCallsRedirected, "Direct calls sent to an accounting entry");
STATISTIC(NumReturnsLowered, "Returns lowered to the return thunk");
STATISTIC(NumTailCallsRetargeted, "Tail calls sent to a tail alias");
STATISTIC(NumTailCallsAccounted, "Tail calls preceded by return accounting");

namespace {

enum class TLSChoice { Auto, LocalExec, InitialExec };

cl::OptionCategory RSBCategory("rsb-stuff options");

cl::opt<bool> Enable("x86-rsb-stuff",
                     cl::desc("Call depth tracking: account calls in a "
                              "prefix before each function and return "
                              "through the RSB-stuffing return thunk"),
                     cl::init(false), cl::cat(RSBCategory));

cl::opt<std::string>
    ReturnThunk("x86-rsb-stuff-return-thunk",
                cl::desc("Symbol that every return jumps to"),
                cl::init("__rsb_return_thunk"), cl::cat(RSBCategory));

cl::opt<std::string> TailAccount(
    "x86-rsb-stuff-tail-account",
    cl::desc("Helper called before a tail call to code that may return with "
             "a plain ret (\"<name>_flags\" preserves RFLAGS)"),
    cl::init("__rsb_tail_account"), cl::cat(RSBCategory));

cl::opt<std::string> CounterSym("x86-rsb-stuff-counter",
                                cl::desc("Thread-local call depth counter"),
                                cl::init("__rsb_depth"), cl::cat(RSBCategory));

cl::opt<bool> Stats("x86-rsb-stuff-stats",
                    cl::desc("Count accounted calls in the prefix (32-byte "
                             "prefix; link the statistics runtime)"),
                    cl::init(false), cl::cat(RSBCategory));

cl::opt<std::string>
    StatsSym("x86-rsb-stuff-stats-block",
             cl::desc("Thread-local statistics block (calls at offset 0)"),
             cl::init("__rsb_stats"), cl::cat(RSBCategory));

cl::opt<TLSChoice> TLSForm(
    "x86-rsb-stuff-tls", cl::desc("How the prefix reaches the counter"),
    cl::values(clEnumValN(TLSChoice::Auto, "auto",
                          "local-exec unless building a shared object"),
               clEnumValN(TLSChoice::LocalExec, "local-exec",
                          "%fs:counter@tpoff (executables)"),
               clEnumValN(TLSChoice::InitialExec, "initial-exec",
                          "through the GOT and %r11 (shared objects)")),
    cl::init(TLSChoice::Auto), cl::cat(RSBCategory));

cl::opt<bool> ExternEntries(
    "x86-rsb-stuff-extern-entries",
    cl::desc("Call external functions through their entry symbols; the link "
             "needs rsb-clang's fallbacks for callees that are not "
             "instrumented"),
    cl::init(true), cl::cat(RSBCategory));

/// How calls to a function are treated.
enum class CalleeKind {
  Instrumented, ///< Defined here with a prefix: call its local entry.
  External,     ///< Resolved by name, maybe instrumented: `__rsb_entry.f`.
  Plain,        ///< Returns with a plain `ret` (or may): never counted.
};

class X86RSBStuff : public MachineFunctionPass {
public:
  static char ID;
  X86RSBStuff() : MachineFunctionPass(ID) {}

  StringRef getPassName() const override {
    return "X86 call depth tracking (rsb-stuff)";
  }
  void getAnalysisUsage(AnalysisUsage &AU) const override {
    AU.addRequired<TargetLibraryInfoWrapperPass>();
    MachineFunctionPass::getAnalysisUsage(AU);
  }
  bool runOnMachineFunction(MachineFunction &MF) override;

private:
  MachineFunction *MF = nullptr;
  const TargetInstrInfo *TII = nullptr;
  const TargetLibraryInfo *TLI = nullptr;
  const X86Names *Names = nullptr;

  CalleeKind classify(const MachineOperand &Target) const;
  MCSymbol *symbolFor(StringRef Prefix, const Function &F) const;
  MCSymbol *namedSymbol(const Twine &Name) const;
  unsigned redirectCalls();
  bool lowerReturnsAndTailCalls(unsigned &Returns, unsigned &TailCalls);
  bool lowerTerminator(MachineInstr &MI, unsigned &Returns,
                       unsigned &TailCalls);
  void accountTailCall(MachineInstr &TailCall);
  void requestPrefix();
  void remarkSkipped(StringRef Reason);
  void remarkInstrumented(unsigned Calls, unsigned Returns,
                          unsigned TailCalls);
};

} // namespace

char X86RSBStuff::ID = 0;

static RegisterPass<X86RSBStuff>
    RegisterRSBStuff(DEBUG_TYPE, "X86 call depth tracking (rsb-stuff)");

/// Calling conventions whose returns are a plain `ret` and whose entry leaves
/// %r11 free. Callee-pop conventions (`ret $n`) cannot use the thunk.
static bool isSupportedCallingConv(CallingConv::ID CC,
                                   const TargetMachine &TM) {
  switch (CC) {
  case CallingConv::C:
  case CallingConv::Cold:
  case CallingConv::PreserveMost:
  case CallingConv::PreserveAll:
  case CallingConv::X86_64_SysV:
  case CallingConv::Swift:
    return true;
  case CallingConv::Fast:
    return !TM.Options.GuaranteedTailCallOpt;
  default:
    return false;
  }
}

/// Why F gets no prefix, or an empty string if it gets one. Decided on the
/// IR alone so that callers in the same module agree with the callee.
static StringRef skipReason(const Function &F, const TargetMachine &TM) {
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked function";
  if (F.getCallingConv() == CallingConv::X86_INTR)
    return "interrupt handler returns with iret";
  if (!isSupportedCallingConv(F.getCallingConv(), TM))
    return "calling convention may pop its arguments or use %r11";
  if (F.hasFnAttribute("fn_ret_thunk_extern"))
    return "returns already go through -mfunction-return=thunk-extern";
  if (F.hasPrefixData() || F.hasPrologueData())
    return "function has prefix or prologue data";
  if (F.hasMetadata(LLVMContext::MD_func_sanitize))
    return "-fsanitize=function data sits before the entry";
  if (F.hasMetadata(LLVMContext::MD_kcfi_type))
    return "a KCFI type hash sits before the entry";
  if (F.hasFnAttribute("patchable-function-prefix"))
    return "patchable-function-entry NOPs sit before the entry";
  return "";
}

static bool isInstrumented(const Function &F, const TargetMachine &TM) {
  return !F.isDeclarationForLinker() && skipReason(F, TM).empty();
}

CalleeKind X86RSBStuff::classify(const MachineOperand &Target) const {
  if (!Target.isGlobal())
    return CalleeKind::Plain;
  const auto *F = dyn_cast<Function>(Target.getGlobal());
  const TargetMachine &TM = MF->getTarget();
  if (!F || F->isIntrinsic())
    return CalleeKind::Plain;
  if (!F->isDeclarationForLinker()) {
    // A weak definition may be replaced at link time by one that has no
    // prefix, so only a definition that is certain to be used counts.
    if (!isInstrumented(*F, TM) || F->isInterposable())
      return CalleeKind::Plain;
    // A preemptible definition (default visibility in a shared object) is
    // reached by name, like an external one: the dynamic linker then picks
    // the entry and the tail alias of the same definition.
    return F->isDSOLocal() ? CalleeKind::Instrumented : CalleeKind::External;
  }
  LibFunc Lib;
  if (!ExternEntries || F->hasExternalWeakLinkage() ||
      F->hasFnAttribute(Attribute::ReturnsTwice) ||
      !isSupportedCallingConv(F->getCallingConv(), TM) ||
      TLI->getLibFunc(*F, Lib) || F->getName().starts_with("__rsb"))
    return CalleeKind::Plain;
  return CalleeKind::External;
}

MCSymbol *X86RSBStuff::namedSymbol(const Twine &Name) const {
  return MF->getContext().getOrCreateSymbol(Name);
}

MCSymbol *X86RSBStuff::symbolFor(StringRef Prefix, const Function &F) const {
  return namedSymbol(Prefix + MF->getTarget().getSymbol(&F)->getName());
}

/// Sends direct calls to instrumented callees to their accounting entries.
/// Done in every function, instrumented or not: a counted call is matched by
/// the callee's thunk return whoever the caller is.
unsigned X86RSBStuff::redirectCalls() {
  unsigned Redirected = 0;
  for (MachineBasicBlock &MBB : *MF) {
    for (MachineInstr &MI : MBB) {
      if (!MI.isCall() || MI.isReturn() || MI.getNumOperands() == 0)
        continue;
      MachineOperand &Target = MI.getOperand(0);
      if (classify(Target) == CalleeKind::Plain)
        continue;
      const auto &F = cast<Function>(*Target.getGlobal());
      Target.ChangeToMCSymbol(symbolFor(EntryPrefix, F),
                              Target.getTargetFlags());
      ++Redirected;
    }
  }
  return Redirected;
}

/// Calls the tail accounting helper right before TailCall: the callee may
/// return with a plain `ret`, which would end a call our caller counted.
void X86RSBStuff::accountTailCall(MachineInstr &TailCall) {
  // A conditional tail call (`jcc f`) still needs its flags.
  bool Conditional = TII->getName(TailCall.getOpcode()).ends_with("_CC");
  std::string Helper = TailAccount + (Conditional ? "_flags" : "");
  BuildMI(*TailCall.getParent(), TailCall, TailCall.getDebugLoc(),
          TII->get(Names->opcode("CALL64pcrel32")))
      .addSym(namedSymbol(Helper));
}

bool X86RSBStuff::lowerTerminator(MachineInstr &MI, unsigned &Returns,
                                  unsigned &TailCalls) {
  StringRef Name = TII->getName(MI.getOpcode());
  if (!MI.isCall()) {
    if (Name != "RET64") {
      std::string Msg = ("x86-rsb-stuff: cannot route return '" + Name +
                         "' through the return thunk")
                            .str();
      MF->getFunction().getContext().diagnose(
          DiagnosticInfoUnsupported(MF->getFunction(), Msg));
      return false;
    }
    BuildMI(*MI.getParent(), MI, MI.getDebugLoc(),
            TII->get(Names->opcode("TAILJMPd64")))
        .addSym(namedSymbol(ReturnThunk));
    MI.eraseFromParent();
    ++Returns;
    return true;
  }
  MachineOperand &Target = MI.getOperand(0);
  switch (classify(Target)) {
  case CalleeKind::Instrumented:
    break;
  case CalleeKind::External: {
    const auto &F = cast<Function>(*Target.getGlobal());
    Target.ChangeToMCSymbol(symbolFor(TailPrefix, F), Target.getTargetFlags());
    ++NumTailCallsRetargeted;
    break;
  }
  case CalleeKind::Plain:
    accountTailCall(MI);
    ++NumTailCallsAccounted;
    break;
  }
  ++TailCalls;
  return true;
}

bool X86RSBStuff::lowerReturnsAndTailCalls(unsigned &Returns,
                                           unsigned &TailCalls) {
  SmallVector<MachineInstr *, 8> Exits;
  for (MachineBasicBlock &MBB : *MF)
    for (MachineInstr &MI : MBB.terminators())
      if (MI.isReturn())
        Exits.push_back(&MI);
  bool Ok = true;
  for (MachineInstr *MI : Exits)
    Ok &= lowerTerminator(*MI, Returns, TailCalls);
  return Ok;
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

static CounterForm counterForm(const MachineFunction &MF) {
  switch (TLSForm) {
  case TLSChoice::LocalExec:
    return CounterForm::LocalExec;
  case TLSChoice::InitialExec:
    return CounterForm::InitialExec;
  case TLSChoice::Auto:
    break;
  }
  // A PIE is an executable: its counter lives in its own TLS block.
  const TargetMachine &TM = MF.getTarget();
  bool SharedObject = TM.isPositionIndependent() &&
                      MF.getFunction().getParent()->getPIELevel() ==
                          PIELevel::Default;
  return SharedObject ? CounterForm::InitialExec : CounterForm::LocalExec;
}

void X86RSBStuff::requestPrefix() {
  const Function &F = MF->getFunction();
  MF->ensureAlignment(Align(16));
  PrefixRequest R;
  R.Function = MF->getTarget().getSymbol(&F);
  R.Entry = symbolFor(EntryPrefix, F);
  if (!F.hasLocalLinkage())
    R.TailAlias = symbolFor(TailPrefix, F);
  R.Binding = bindingOf(F);
  R.Visibility = visibilityOf(F);
  R.Counter = namedSymbol(CounterSym);
  R.StatsBlock = Stats ? namedSymbol(StatsSym) : nullptr;
  R.Form = counterForm(*MF);
  R.PrefixSize = Stats ? 32 : 16;
  R.FunctionAlign = MF->getAlignment();
  R.EmitCFI = MF->needsFrameMoves();
  R.STI = &MF->getSubtarget();
  rsbstuff::requestPrefix(MF->getContext(), R);
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
                                     unsigned TailCalls) {
  MachineOptimizationRemarkEmitter ORE(*MF, nullptr);
  ORE.emit([&] {
    return MachineOptimizationRemark(DEBUG_TYPE, "Instrumented",
                                     MF->getFunction().getSubprogram(),
                                     &MF->front())
           << "'" << MF->getName() << "' instrumented: "
           << ore::NV("Calls", Calls) << " calls redirected, "
           << ore::NV("Returns", Returns) << " returns lowered, "
           << ore::NV("TailCalls", TailCalls) << " tail calls";
  });
}

bool X86RSBStuff::runOnMachineFunction(MachineFunction &Fn) {
  if (!Enable)
    return false;
  MF = &Fn;
  TII = Fn.getSubtarget().getInstrInfo();
  TLI = &getAnalysis<TargetLibraryInfoWrapperPass>().getTLI(Fn.getFunction());
  Names = &X86Names::get(*TII, *Fn.getSubtarget().getRegisterInfo());

  unsigned Calls = redirectCalls();
  NumCallsRedirected += Calls;

  const Function &F = Fn.getFunction();
  StringRef Reason = skipReason(F, Fn.getTarget());
  if (!Reason.empty()) {
    ++NumSkipped;
    remarkSkipped(Reason);
    return Calls != 0;
  }
  if (!hasPrefixStreamer(Fn.getContext())) {
    F.getContext().diagnose(DiagnosticInfoUnsupported(
        F, "x86-rsb-stuff: no prefix streamer serves this output (only ELF "
           "assembly and object files are supported)"));
    return Calls != 0;
  }

  unsigned Returns = 0, TailCalls = 0;
  if (!lowerReturnsAndTailCalls(Returns, TailCalls))
    return true;
  NumReturnsLowered += Returns;
  requestPrefix();
  ++NumInstrumented;
  remarkInstrumented(Calls, Returns, TailCalls);
  return true;
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

namespace {

/// Reports a configuration error once per module through the LLVMContext, so
/// that clang and llc print `error: ...` and exit non-zero.
class RSBStuffConfigError : public ModulePass {
public:
  static char ID;
  explicit RSBStuffConfigError(std::string Message = "")
      : ModulePass(ID), Message(std::move(Message)) {}
  StringRef getPassName() const override { return "rsb-stuff config error"; }
  bool runOnModule(Module &M) override {
    M.getContext().diagnose(DiagnosticInfoGeneric(Message, DS_Error));
    return false;
  }

private:
  std::string Message;
};

} // namespace

char RSBStuffConfigError::ID = 0;

static bool isValidSymbolName(StringRef Name) {
  if (Name.empty() || isDigit(Name.front()))
    return false;
  return llvm::all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '.' || C == '$';
  });
}

/// Returns why -x86-rsb-stuff cannot serve TM, or an empty string.
static std::string configProblem(const TargetMachine &TM) {
  const Triple &TT = TM.getTargetTriple();
  if (TT.getArch() != Triple::x86_64 || TT.isX32())
    return "x86-rsb-stuff: target '" + TT.str() +
           "' is not supported: only x86-64 (LP64) is";
  if (!TT.isOSBinFormatELF())
    return "x86-rsb-stuff: target '" + TT.str() +
           "' is not supported: only ELF object files are";
  if (TM.getCodeModel() == CodeModel::Kernel)
    return "x86-rsb-stuff: -mcmodel=kernel is not supported by the user-space "
           "mode";
  for (const cl::opt<std::string> *Opt :
       {&ReturnThunk, &TailAccount, &CounterSym, &StatsSym})
    if (!isValidSymbolName(*Opt))
      return ("x86-rsb-stuff: invalid symbol name '" + *Opt + "' for -" +
              Opt->ArgStr)
          .str();
  return "";
}

static void addToPipeline(TargetMachine &TM, PassManagerBase &PM,
                          TargetPassConfig *PassConfig) {
  if (!Enable)
    return;
  std::string Problem = configProblem(TM);
  if (!Problem.empty()) {
    PM.add(new RSBStuffConfigError(Problem));
    return;
  }
  installPrefixStreamer(const_cast<Target &>(TM.getTarget()));
  PassConfig->insertPass(&UnpackMachineBundlesID, &X86RSBStuff::ID);
}

static RegisterTargetPassConfigCallback RegisterCallback(addToPipeline);

/// Lets clang load the plugin with -fpass-plugin= as well as -fplugin=; the
/// work is done by the codegen callback above.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "rsb-stuff", "0.1.0", nullptr};
}
