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

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineModuleInfo.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetFrameLowering.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDwarf.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

#define DEBUG_TYPE "x86-rsb-stuff"

ALWAYS_ENABLED_STATISTIC(NumInstrumented,
                         "Functions given an accounting prefix");
ALWAYS_ENABLED_STATISTIC(NumSkipped, "Functions left without a prefix");
ALWAYS_ENABLED_STATISTIC(NumElided,
                         "Functions whose call subtree fits the spare entries");
ALWAYS_ENABLED_STATISTIC(NumCallsRedirected,
                         "Direct calls sent to an accounting entry");
ALWAYS_ENABLED_STATISTIC(NumReturnsLowered,
                         "Returns lowered to the return thunk");
ALWAYS_ENABLED_STATISTIC(NumTailCallsRetargeted,
                         "Tail calls sent to a tail alias");
ALWAYS_ENABLED_STATISTIC(NumTailCallsAccounted,
                         "Tail calls preceded by return accounting");
ALWAYS_ENABLED_STATISTIC(NumResets,
                         "Credit resets after unseen code and at landing pads");

/// Debian's LLVM is a release build: STATISTIC counters are compiled out and
/// its registry never prints. The plugin's counters are always enabled and
/// printed at exit under -stats, in LLVM's format.
namespace {
struct StatisticsAtExit {
  ~StatisticsAtExit() {
    if (!AreStatisticsEnabled())
      return;
    const TrackingStatistic *All[] = {
        &NumInstrumented,       &NumSkipped,        &NumElided,
        &NumCallsRedirected,    &NumReturnsLowered, &NumTailCallsRetargeted,
        &NumTailCallsAccounted, &NumResets};
    raw_ostream &OS = errs();
    OS << "===" << std::string(73, '-') << "===\n"
       << "                     ... rsb-stuff Statistics Collected ...\n"
       << "===" << std::string(73, '-') << "===\n\n";
    for (const TrackingStatistic *Stat : All)
      if (Stat->getValue())
        OS << format("%5u %s - %s\n", unsigned(Stat->getValue()),
                     Stat->getDebugType(), Stat->getDesc());
    OS << "\n";
  }
} PrintStatisticsAtExit;
} // namespace

static CounterForm counterForm(const MachineFunction &MF);

namespace {

enum class TLSChoice { Auto, LocalExec, InitialExec };

cl::OptionCategory RSBCategory("rsb-stuff options");

cl::opt<bool> Enable("x86-rsb-stuff",
                     cl::desc("Call depth tracking: account calls in a "
                              "prefix before each function and return "
                              "through the RSB-stuffing return thunk"),
                     cl::init(false), cl::cat(RSBCategory));

cl::opt<std::string> ReturnThunk("x86-rsb-stuff-return-thunk",
                                 cl::desc("Symbol that every return jumps to"),
                                 cl::init("__rsb_return_thunk"),
                                 cl::cat(RSBCategory));

/// Where a return shifts the counter back (docs/performance.md measures both).
enum class ReturnCheck { Thunk, Inline };

cl::opt<ReturnCheck> ReturnCheckForm(
    "x86-rsb-stuff-return-check", cl::desc("Where a return accounts itself"),
    cl::values(clEnumValN(ReturnCheck::Thunk, "thunk",
                          "`jmp` to the return thunk (default)"),
               clEnumValN(ReturnCheck::Inline, "inline",
                          "`shlq $5` on the counter, `je` to the refill "
                          "helper, `ret`, in place (measurement only: keeps "
                          "a ret, which rsb-verify rejects)")),
    cl::init(ReturnCheck::Thunk), cl::cat(RSBCategory));

/// Refills the RSB, credits the counter and returns; where the inline
/// return check jumps when its shift leaves zero.
constexpr StringLiteral RefillReturn = "__rsb_refill_return";

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

cl::opt<TLSChoice>
    TLSForm("x86-rsb-stuff-tls", cl::desc("How the prefix reaches the counter"),
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

cl::opt<bool> ResetCredit(
    "x86-rsb-stuff-reset",
    cl::desc("Clear the call credit after calls into code whose calls and "
             "returns the counter cannot see, at setjmp returns and at "
             "exception landing pads"),
    cl::init(true), cl::cat(RSBCategory));

cl::opt<std::string>
    ResetHelper("x86-rsb-stuff-reset-helper",
                cl::desc("Helper that clears the calling thread's credit"),
                cl::init("__rsb_reset_depth"), cl::cat(RSBCategory));

cl::list<std::string>
    SkipList("x86-rsb-stuff-skip", cl::CommaSeparated,
             cl::desc("Functions (symbol names) to leave uninstrumented"),
             cl::cat(RSBCategory));

cl::opt<std::string> SkipFile(
    "x86-rsb-stuff-skip-file",
    cl::desc("File listing functions to leave uninstrumented, one symbol "
             "per line ('#' starts a comment)"),
    cl::cat(RSBCategory));

cl::opt<unsigned> ElideDepth(
    "x86-rsb-stuff-elide-depth",
    cl::desc("Leave out the accounting of functions whose whole call subtree "
             "is known and at most this many calls deep (0: off, at most 4, "
             "the RSB entries spare above the counter's credit)"),
    cl::init(0), cl::cat(RSBCategory));

/// Designs to compare (docs/performance.md); only `prefix` is the product.
enum class Variant { Prefix, CallThunks, CallSite, RetThunk };

cl::opt<Variant> Design(
    "x86-rsb-stuff-variant",
    cl::desc("Accounting design (the others exist to be measured against)"),
    cl::values(
        clEnumValN(Variant::Prefix, "prefix",
                   "accounting prefix right before each entry (default)"),
        clEnumValN(Variant::CallThunks, "call-thunks",
                   "the kernel's out-of-line call thunks `sarq; jmp f` in a "
                   "section of their own"),
        clEnumValN(Variant::CallSite, "call-site",
                   "`sarq` before each call to a function instrumented in "
                   "this module; no entries for other modules"),
        clEnumValN(Variant::RetThunk, "ret-thunk",
                   "returns jump to the return thunk, nothing is counted: "
                   "the cost of the jump alone")),
    cl::init(Variant::Prefix), cl::cat(RSBCategory));

/// What -x86-rsb-stuff* asked for, from the command line or, for LTO code
/// generation inside the linker (where no -mllvm option reaches the plugin
/// before it is loaded), from the module flags that the compile step left.
struct ModuleSettings {
  bool Enabled = false;
  bool Stats = false;
  unsigned ElideDepth = 0;
};

constexpr StringLiteral EnableFlag = "rsb-stuff";
constexpr StringLiteral StatsFlag = "rsb-stuff-stats";
constexpr StringLiteral ElideFlag = "rsb-stuff-elide-depth";

unsigned moduleFlag(const Module &M, StringRef Name) {
  if (auto *Value =
          mdconst::extract_or_null<ConstantInt>(M.getModuleFlag(Name)))
    return Value->getZExtValue();
  return 0;
}

ModuleSettings settingsFor(const Module &M) {
  ModuleSettings S;
  S.Enabled = Enable || kernel::enabled() || moduleFlag(M, EnableFlag);
  S.Stats = Stats || moduleFlag(M, StatsFlag);
  S.ElideDepth = Enable ? unsigned(ElideDepth) : moduleFlag(M, ElideFlag);
  return S;
}

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
  Module *DepthModule = nullptr;
  ModuleSettings Settings;
  std::unique_ptr<CallDepth> Depth;
  bool CurrentElided = false;
  unsigned KernelTemplateSize = 0;

  void prepareModule(Module &M);
  void prepareKernelModule(Module &M);
  bool runKernel();
  std::vector<std::pair<MCSymbol *, MCSymbol *>> retargetKernelCalls();
  PrefixRequest kernelRequest();
  StringRef counterName() const;
  StringRef statsBlockName() const;
  bool isElided(const Function &F) const { return Depth->isElided(F); }
  CalleeKind classify(const MachineOperand &Target) const;
  MCSymbol *symbolFor(StringRef Prefix, const Function &F) const;
  MCSymbol *namedSymbol(const Twine &Name) const;
  unsigned targetFlag(StringRef Name) const;
  bool isShallow(const MachineOperand &Target) const;
  bool needsResetAfter(const MachineInstr &Call) const;
  void insertReset(MachineBasicBlock &MBB, MachineBasicBlock::iterator Pos);
  unsigned rewriteCalls(bool Instrumented, unsigned &Resets);
  void shiftCounter(MachineBasicBlock &MBB, MachineBasicBlock::iterator Pos,
                    const DebugLoc &DL, StringRef Opcode);
  void accountAtCallSite(MachineInstr &Call);
  void checkReturnInline(MachineInstr &Ret);
  bool lowerReturnsOnly();
  unsigned resetAtLandingPads();
  bool lowerExits(bool WithTailCalls, unsigned &Returns, unsigned &TailCalls);
  bool lowerTerminator(MachineInstr &MI, unsigned &Returns,
                       unsigned &TailCalls);
  void accountTailCall(MachineInstr &TailCall);
  void callBeforeTailCall(MachineInstr &TailCall, MCSymbol *Helper,
                          bool Conditional);
  void requestPrefix();
  void remarkSkipped(StringRef Reason);
  void remarkElided();
  void remarkKernelTemplate(unsigned InitCalls);
  void remarkInstrumented(unsigned Calls, unsigned Returns, unsigned TailCalls,
                          unsigned Resets);
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

static bool callsEHReturn(const Function &F) {
  for (const Instruction &I : instructions(F))
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::eh_return_i64 ||
          II->getIntrinsicID() == Intrinsic::eh_return_i32)
        return true;
  return false;
}

/// Why F gets no prefix, or an empty string if it gets one. Decided on the
/// IR alone so that callers in the same module agree with the callee.

static StringRef skipReason(const Function &F, const TargetMachine &TM) {
  if (F.hasFnAttribute(OptOutAttr))
    return F.getFnAttribute(OptOutAttr).getValueAsString();
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked function";
  if (F.getCallingConv() == CallingConv::X86_INTR)
    return "interrupt handler returns with iret";
  if (!isSupportedCallingConv(F.getCallingConv(), TM))
    return "calling convention may pop its arguments or use %r11";
  if (F.hasFnAttribute(Attribute::FnRetThunkExtern))
    return "returns already go through -mfunction-return=thunk-extern";
  if (F.getFnAttribute("function-instrument").getValueAsString() ==
          "xray-always" ||
      F.hasFnAttribute("xray-instruction-threshold"))
    return "XRay patches its returns";
  if (callsEHReturn(F))
    return "returns through __builtin_eh_return";
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

/// The rsb-stuff runtime: never instrumented, and its functions are leaves
/// (rsb_stuff.h), so calls to them are neither counted nor need a reset.
static bool isRuntimeFunction(StringRef Name) {
  return Name.starts_with("__rsb") ||
         StringSwitch<bool>(Name)
             .Cases({"rsb_depth_read", "rsb_depth_reset", "rsb_depth_address",
                     "rsb_stats_read", "rsb_stats_reset"},
                    true)
             .Default(false);
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
    if (!isInstrumented(*F, TM) || F->isInterposable() || isElided(*F))
      return CalleeKind::Plain;
    // A preemptible definition (default visibility in a shared object) is
    // reached by name, like an external one: the dynamic linker then picks
    // the entry and the tail alias of the same definition. So is an ODR
    // (COMDAT) one: the linker may keep another object's copy, and only its
    // symbols say whether that copy has a prefix.
    bool ByName = !F->isDSOLocal() || F->isWeakForLinker();
    if (ByName && Design == Variant::CallSite)
      return CalleeKind::Plain;
    return ByName ? CalleeKind::External : CalleeKind::Instrumented;
  }
  if (Design == Variant::CallSite)
    return CalleeKind::Plain;
  LibFunc Lib;
  if (!ExternEntries || F->hasExternalWeakLinkage() ||
      F->hasFnAttribute(Attribute::ReturnsTwice) ||
      !isSupportedCallingConv(F->getCallingConv(), TM) ||
      TLI->getLibFunc(*F, Lib) || isRuntimeFunction(F->getName()))
    return CalleeKind::Plain;
  return CalleeKind::External;
}

/// X86 operand target flags by their MIR names (the enum is private).
static unsigned targetFlagNamed(const TargetInstrInfo &TII, StringRef Name) {
  for (const auto &[Flag, FlagName] :
       TII.getSerializableDirectMachineOperandTargetFlags())
    if (Name == FlagName)
      return Flag;
  report_fatal_error(Twine("rsb-stuff: X86 operand flag ") + Name +
                     " not found");
}

unsigned X86RSBStuff::targetFlag(StringRef Name) const {
  return targetFlagNamed(*TII, Name);
}

MCSymbol *X86RSBStuff::namedSymbol(const Twine &Name) const {
  return MF->getContext().getOrCreateSymbol(Name);
}

MCSymbol *X86RSBStuff::symbolFor(StringRef Prefix, const Function &F) const {
  return namedSymbol(Prefix + MF->getTarget().getSymbol(&F)->getName());
}

/// Library functions that glibc implements as leaves (IFUNC-selected
/// assembly): a call to one pushes and pops a single RSB entry, well within
/// the spare entries above the counter's credit, so it cannot take the
/// entries that credit stands for.
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

/// Libcalls the code generator emits by name that are leaves as well.
static bool isShallowSymbol(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"memcpy", "memmove", "memset", "memcmp", "bcmp"}, true)
      .Default(false);
}

bool X86RSBStuff::isShallow(const MachineOperand &Target) const {
  if (Target.isSymbol())
    return isShallowSymbol(Target.getSymbolName());
  if (Target.isMCSymbol())
    return isShallowSymbol(Target.getMCSymbol()->getName());
  const auto *F =
      Target.isGlobal() ? dyn_cast<Function>(Target.getGlobal()) : nullptr;
  LibFunc LF;
  if (F && !F->isDeclarationForLinker())
    return isElided(*F);
  return F && (isRuntimeFunction(F->getName()) ||
               (TLI->getLibFunc(*F, LF) && isShallowLibFunc(LF)));
}

/// A call that ends its block with nowhere to go: the callee never returns.
static bool isNoReturnCall(const MachineInstr &Call) {
  const MachineBasicBlock &MBB = *Call.getParent();
  return &Call == &*MBB.getLastNonDebugInstr() && MBB.succ_empty();
}

/// Control that comes back from a call the counter did not see (libc, an
/// indirect call, a setjmp returning again) may come from code that went
/// more than the RSB's spare entries deep: the entries our credit stands for
/// may be gone. A call that never returns needs nothing.
bool X86RSBStuff::needsResetAfter(const MachineInstr &Call) const {
  if (isNoReturnCall(Call))
    return false;
  const MachineOperand &Target = Call.getOperand(0);
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
      .addSym(namedSymbol(ResetHelper));
  ++NumResets;
}

/// Sends direct calls to instrumented callees to their accounting entries
/// (in every function, instrumented or not: a counted call is matched by the
/// callee's thunk return whoever the caller is) and, in instrumented
/// functions, clears the credit after calls the counter cannot see.
unsigned X86RSBStuff::rewriteCalls(bool Instrumented, unsigned &Resets) {
  unsigned Redirected = 0;
  for (MachineBasicBlock &MBB : *MF) {
    for (MachineInstr &MI : make_early_inc_range(MBB)) {
      if (!MI.isCall() || MI.isReturn() || MI.getNumOperands() == 0)
        continue;
      MachineOperand &Target = MI.getOperand(0);
      if (classify(Target) != CalleeKind::Plain) {
        if (Design == Variant::CallSite) {
          accountAtCallSite(MI);
        } else {
          const auto &F = cast<Function>(*Target.getGlobal());
          Target.ChangeToMCSymbol(symbolFor(EntryPrefix, F),
                                  Target.getTargetFlags());
        }
        ++Redirected;
      } else if (Instrumented && ResetCredit && needsResetAfter(MI)) {
        insertReset(MBB, afterCallCFI(MI));
        ++Resets;
      }
    }
  }
  return Redirected;
}

/// Inserts `Opcode $5, counter` (SAR64mi or SHL64mi) before Pos, in the
/// function's counter form. %r11 and the flags must be dead there.
void X86RSBStuff::shiftCounter(MachineBasicBlock &MBB,
                               MachineBasicBlock::iterator Pos,
                               const DebugLoc &DL, StringRef Opcode) {
  MCSymbol *Counter = namedSymbol(CounterSym);
  Register FS = Names->reg("FS"), R11 = Names->reg("R11");
  auto Shift = BuildMI(MBB, Pos, DL, TII->get(Names->opcode(Opcode)));
  if (counterForm(*MF) == CounterForm::InitialExec) {
    BuildMI(MBB, *Shift, DL, TII->get(Names->opcode("MOV64rm")), R11)
        .addReg(Names->reg("RIP"))
        .addImm(1)
        .addReg(0)
        .addSym(Counter, targetFlag("x86-gottpoff"))
        .addReg(0);
    Shift.addReg(R11).addImm(1).addReg(0).addImm(0).addReg(FS);
  } else {
    Shift.addReg(0)
        .addImm(1)
        .addReg(0)
        .addSym(Counter, targetFlag("x86-tpoff"))
        .addReg(FS);
  }
  Shift.addImm(5);
}

/// The call-site design: the caller counts, right before the call. %r11 and
/// the flags are dead there (a direct call uses neither, and clobbers both).
void X86RSBStuff::accountAtCallSite(MachineInstr &Call) {
  shiftCounter(*Call.getParent(), Call, Call.getDebugLoc(), "SAR64mi");
}

/// The return thunk's hot path in place of the `jmp` to it: `shlq $5`, a
/// conditional tail jump to the refill when that leaves zero, the `ret`.
/// %r11 and the flags are dead at a return (the PIC thunk uses them too).
void X86RSBStuff::checkReturnInline(MachineInstr &Ret) {
  constexpr unsigned CondEqual = 4; // X86::COND_E (X86BaseInfo.h)
  MachineBasicBlock &MBB = *Ret.getParent();
  const DebugLoc &DL = Ret.getDebugLoc();
  shiftCounter(MBB, Ret, DL, "SHL64mi");
  BuildMI(MBB, Ret, DL, TII->get(Names->opcode("TAILJMPd64_CC")))
      .addSym(namedSymbol(RefillReturn))
      .addImm(CondEqual);
}

/// The ret-thunk design: only the returns change.
bool X86RSBStuff::lowerReturnsOnly() {
  unsigned Returns = 0, TailCalls = 0;
  bool Ok = lowerExits(/*WithTailCalls=*/false, Returns, TailCalls);
  NumReturnsLowered += Returns;
  return Ok;
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

/// Runs before TailCall, whose target may return with a plain `ret`: that
/// ret ends a call our caller counted. A leaf target only needs that return
/// accounted; anything deeper may also take the entries of the remaining
/// credit, so the credit is cleared instead (which also covers the return).
void X86RSBStuff::accountTailCall(MachineInstr &TailCall) {
  bool Conditional = TII->getName(TailCall.getOpcode()).ends_with("_CC");
  if (ResetCredit && !isShallow(TailCall.getOperand(0))) {
    // The reset helper keeps the flags a conditional tail call needs.
    callBeforeTailCall(TailCall, namedSymbol(ResetHelper), Conditional);
    ++NumResets;
    return;
  }
  // A conditional tail call (`jcc f`) still needs its flags.
  std::string Helper = TailAccount + (Conditional ? "_flags" : "");
  callBeforeTailCall(TailCall, namedSymbol(Helper), Conditional);
}

/// Calls Helper right before TailCall. An unconditional tail call has torn
/// the frame down, but after a conditional one that is not taken the
/// function goes on, and a function without calls may keep locals in the
/// red zone below %rsp, which the call's return address would overwrite:
/// step over the red zone with flag-preserving LEAs (and tell the unwinder
/// when the CFA is %rsp-based).
void X86RSBStuff::callBeforeTailCall(MachineInstr &TailCall, MCSymbol *Helper,
                                     bool Conditional) {
  MachineBasicBlock &MBB = *TailCall.getParent();
  const DebugLoc &DL = TailCall.getDebugLoc();
  bool SkipRedZone =
      Conditional && !MF->getFunction().hasFnAttribute(Attribute::NoRedZone);
  auto MoveSP = [&](int64_t Offset) {
    Register SP = Names->reg("RSP");
    BuildMI(MBB, TailCall, DL, TII->get(Names->opcode("LEA64r")), SP)
        .addReg(SP)
        .addImm(1)
        .addReg(0)
        .addImm(Offset)
        .addReg(0);
    if (MF->needsFrameMoves() &&
        !MF->getSubtarget().getFrameLowering()->hasFP(*MF))
      BuildMI(MBB, TailCall, DL, TII->get(TargetOpcode::CFI_INSTRUCTION))
          .addCFIIndex(MF->addFrameInst(
              MCCFIInstruction::createAdjustCfaOffset(nullptr, -Offset)));
  };
  constexpr int64_t RedZone = 128;
  if (SkipRedZone)
    MoveSP(-RedZone);
  BuildMI(MBB, TailCall, DL, TII->get(Names->opcode("CALL64pcrel32")))
      .addSym(Helper);
  if (SkipRedZone)
    MoveSP(RedZone);
}

bool X86RSBStuff::lowerTerminator(MachineInstr &MI, unsigned &Returns,
                                  unsigned &TailCalls) {
  StringRef Name = TII->getName(MI.getOpcode());
  if (CurrentElided) {
    // Nobody counted a call to this function: its returns stay plain. Only
    // a tail call to code the analysis did not foresee needs the reset.
    if (MI.isCall() && ResetCredit && !isShallow(MI.getOperand(0))) {
      callBeforeTailCall(MI, namedSymbol(ResetHelper), Name.ends_with("_CC"));
      ++NumResets;
    }
    return true;
  }
  if (!MI.isCall()) {
    if (Name != "RET64") {
      std::string Msg = ("x86-rsb-stuff: cannot route return '" + Name +
                         "' through the return thunk")
                            .str();
      MF->getFunction().getContext().diagnose(
          DiagnosticInfoUnsupported(MF->getFunction(), Msg));
      return false;
    }
    ++Returns;
    if (ReturnCheckForm == ReturnCheck::Inline) {
      checkReturnInline(MI);
      return true;
    }
    BuildMI(*MI.getParent(), MI, MI.getDebugLoc(),
            TII->get(Names->opcode("TAILJMPd64")))
        .addSym(namedSymbol(ReturnThunk));
    MI.eraseFromParent();
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

/// Lowers the returns and, WithTailCalls, the tail calls. They are collected
/// first: lowering one changes its block.
bool X86RSBStuff::lowerExits(bool WithTailCalls, unsigned &Returns,
                             unsigned &TailCalls) {
  SmallVector<MachineInstr *, 8> Exits;
  for (MachineBasicBlock &MBB : *MF)
    for (MachineInstr &MI : MBB.terminators())
      if (MI.isReturn() && (WithTailCalls || !MI.isCall()))
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
  bool SharedObject =
      TM.isPositionIndependent() &&
      MF.getFunction().getParent()->getPIELevel() == PIELevel::Default;
  return SharedObject ? CounterForm::InitialExec : CounterForm::LocalExec;
}

/// The kernel's symbols unless the command line names others.
StringRef X86RSBStuff::counterName() const {
  if (kernel::enabled() && !CounterSym.getNumOccurrences())
    return "pcpu_hot";
  return CounterSym;
}

StringRef X86RSBStuff::statsBlockName() const {
  if (kernel::enabled() && !StatsSym.getNumOccurrences())
    return "__x86_call_count";
  return StatsSym;
}

void X86RSBStuff::requestPrefix() {
  const Function &F = MF->getFunction();
  if (!CurrentElided)
    MF->ensureAlignment(Align(16));
  PrefixRequest R;
  // The AsmPrinter aligns to the larger of the two.
  R.FunctionAlign = std::max(MF->getAlignment(), F.getAlign().valueOrOne());
  R.Function = MF->getTarget().getSymbol(&F);
  R.Entry = symbolFor(EntryPrefix, F);
  if (!F.hasLocalLinkage())
    R.TailAlias = symbolFor(TailPrefix, F);
  R.Binding = bindingOf(F);
  R.Visibility = visibilityOf(F);
  R.Counter = namedSymbol(CounterSym);
  R.StatsBlock = Settings.Stats ? namedSymbol(StatsSym) : nullptr;
  R.Form = counterForm(*MF);
  R.PrefixSize = Settings.Stats ? 32 : 16;
  R.Placement = Design == Variant::CallThunks ? EntryPlacement::OutOfLine
                                              : EntryPlacement::Prefix;
  R.Elided = CurrentElided;
  R.TailAccount = namedSymbol(TailAccount);
  R.EmitCFI = MF->needsFrameMoves();
  R.STI = &MF->getSubtarget();
  rsbstuff::requestPrefix(MF->getContext(), R);
}

/// Functions annotated with `__attribute__((annotate("rsb_nostuff")))`.
static SmallPtrSet<Function *, 8> annotatedOptOuts(Module &M) {
  SmallPtrSet<Function *, 8> Result;
  const GlobalVariable *GV = M.getGlobalVariable("llvm.global.annotations");
  const auto *Array = GV && GV->hasInitializer()
                          ? dyn_cast<ConstantArray>(GV->getInitializer())
                          : nullptr;
  if (!Array)
    return Result;
  for (const Use &Op : Array->operands()) {
    const auto *Entry = dyn_cast<ConstantStruct>(Op);
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    const auto *Str =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    const auto *Data =
        Str && Str->hasInitializer()
            ? dyn_cast<ConstantDataSequential>(Str->getInitializer())
            : nullptr;
    if (F && Data && Data->isCString() && Data->getAsCString() == "rsb_nostuff")
      Result.insert(F);
  }
  return Result;
}

/// Symbols named by -x86-rsb-stuff-skip and -x86-rsb-stuff-skip-file.
static StringSet<> skipListSymbols(LLVMContext &Ctx) {
  StringSet<> Names;
  for (const std::string &Name : SkipList)
    Names.insert(Name);
  if (SkipFile.empty())
    return Names;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(SkipFile);
  if (!Buffer) {
    std::string Msg = "x86-rsb-stuff: cannot read -x86-rsb-stuff-skip-file '" +
                      SkipFile + "': " + Buffer.getError().message();
    Ctx.diagnose(DiagnosticInfoGeneric(Msg, DS_Error));
    return Names;
  }
  SmallVector<StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.split('#').first.trim();
    if (!Line.empty())
      Names.insert(Line);
  }
  return Names;
}

/// Once per module: records the user's opt-outs on the functions, so that
/// callers and callees agree, and sets up the elision analysis.
void X86RSBStuff::prepareModule(Module &M) {
  if (DepthModule == &M)
    return;
  DepthModule = &M;
  Settings = settingsFor(M);
  if (!Settings.Enabled)
    return;
  if (kernel::enabled())
    prepareKernelModule(M);
  for (Function *F : annotatedOptOuts(M))
    F->addFnAttr(OptOutAttr, "marked rsb_nostuff");
  StringSet<> Skip = skipListSymbols(M.getContext());
  for (Function &F : M)
    if (Skip.contains(MF->getTarget().getSymbol(&F)->getName()))
      F.addFnAttr(OptOutAttr, "in the skip list");
  const TargetMachine &TM = MF->getTarget();
  auto &TLIWP = getAnalysis<TargetLibraryInfoWrapperPass>();
  auto CanElide = [&TM](const Function &F) {
    return isInstrumented(F, TM) && !F.isInterposable() && F.isDSOLocal() &&
           !F.isWeakForLinker();
  };
  auto IsLeafDeclaration = [&TLIWP](const Function &F) {
    LibFunc LF;
    return isRuntimeFunction(F.getName()) ||
           (TLIWP.getTLI(F).getLibFunc(F, LF) && isShallowLibFunc(LF));
  };
  unsigned Limit = Design == Variant::Prefix ? Settings.ElideDepth : 0;
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

bool X86RSBStuff::runOnMachineFunction(MachineFunction &Fn) {
  MF = &Fn;
  prepareModule(*Fn.getFunction().getParent());
  if (!Settings.Enabled)
    return false;
  TII = Fn.getSubtarget().getInstrInfo();
  TLI = &getAnalysis<TargetLibraryInfoWrapperPass>().getTLI(Fn.getFunction());
  Names = &X86Names::get(*TII, *Fn.getSubtarget().getRegisterInfo());

  if (kernel::enabled())
    return runKernel();
  const Function &F = Fn.getFunction();
  StringRef Reason = skipReason(F, Fn.getTarget());
  if (Design == Variant::RetThunk)
    return Reason.empty() && lowerReturnsOnly();
  unsigned Resets = 0;
  unsigned Calls = rewriteCalls(Reason.empty(), Resets);
  NumCallsRedirected += Calls;
  if (!Reason.empty()) {
    ++NumSkipped;
    remarkSkipped(Reason);
    return Calls != 0;
  }
  if (!hasPrefixStreamer(Fn.getContext())) {
    F.getContext().diagnose(DiagnosticInfoUnsupported(
        F, "x86-rsb-stuff: no prefix streamer serves this output (only ELF "
           "assembly and object files are supported)"));
    return true;
  }

  if (ResetCredit)
    Resets += resetAtLandingPads();
  CurrentElided = isElided(F);
  unsigned Returns = 0, TailCalls = 0;
  if (!lowerExits(/*WithTailCalls=*/true, Returns, TailCalls))
    return true;
  NumReturnsLowered += Returns;
  if (Design != Variant::CallSite)
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

//===----------------------------------------------------------------------===//
// Kernel mode (see RSBStuffKernel.cpp)
//===----------------------------------------------------------------------===//

PrefixRequest X86RSBStuff::kernelRequest() {
  const Function &F = MF->getFunction();
  PrefixRequest R;
  R.Function = MF->getTarget().getSymbol(&F);
  R.Entry = symbolFor(EntryPrefix, F);
  R.PaddingSymbol = symbolFor(kernel::PaddingPrefix, F);
  R.Binding = bindingOf(F);
  R.Visibility = visibilityOf(F);
  R.Counter = namedSymbol(counterName());
  R.StatsBlock = Settings.Stats ? namedSymbol(statsBlockName()) : nullptr;
  kernel::describeCounter(R);
  R.Placement = EntryPlacement::Padding;
  R.EmitCFI = MF->needsFrameMoves();
  R.STI = &MF->getSubtarget();
  return R;
}

/// KCFI keeps its type hash in the padding (and FineIBT rewrites it); the
/// template cannot share it.
void X86RSBStuff::prepareKernelModule(Module &M) {
  if (M.getModuleFlag("kcfi"))
    M.getContext().diagnose(DiagnosticInfoGeneric(
        "x86-rsb-stuff: -fsanitize=kcfi is not supported with "
        "-x86-rsb-stuff-kernel: the KCFI type hash occupies the padding "
        "that the template needs",
        DS_Error));
  KernelTemplateSize = accountingSize(MF->getContext(), kernelRequest());
}

/// Sends the calls of an .init.text function to accounting thunks. Calls that
/// do not return stay direct: nothing would match their count, and objtool
/// must still see that the caller ends there. Returns the thunks.
std::vector<std::pair<MCSymbol *, MCSymbol *>>
X86RSBStuff::retargetKernelCalls() {
  const TargetMachine &TM = MF->getTarget();
  std::vector<std::pair<MCSymbol *, MCSymbol *>> Thunks;
  for (MachineBasicBlock &MBB : *MF) {
    for (MachineInstr &MI : MBB) {
      if (!MI.isCall() || MI.isReturn() || MI.getNumOperands() == 0 ||
          !MI.getOperand(0).isGlobal() || isNoReturnCall(MI))
        continue;
      const auto *Callee = dyn_cast<Function>(MI.getOperand(0).getGlobal());
      if (!Callee || !kernel::accountsInitCall(*Callee, TM, KernelTemplateSize))
        continue;
      MCSymbol *Thunk = symbolFor(kernel::InitThunkPrefix, *Callee);
      MI.getOperand(0).ChangeToMCSymbol(Thunk,
                                        MI.getOperand(0).getTargetFlags());
      Thunks.emplace_back(Thunk, TM.getSymbol(Callee));
    }
  }
  return Thunks;
}

bool X86RSBStuff::runKernel() {
  Function &F = MF->getFunction();
  PrefixRequest R = kernelRequest();
  if (kernel::accountsCallsFrom(F))
    R.InitThunks = retargetKernelCalls();
  unsigned Calls = R.InitThunks.size();
  NumCallsRedirected += Calls;
  StringRef Reason = kernel::skipReason(F, MF->getTarget(), KernelTemplateSize);
  if (!Reason.empty()) {
    ++NumSkipped;
    remarkSkipped(Reason);
    R.ThunksOnly = true;
  }
  if ((Reason.empty() || Calls) && !hasPrefixStreamer(MF->getContext())) {
    F.getContext().diagnose(DiagnosticInfoUnsupported(
        F, "x86-rsb-stuff: no prefix streamer serves this output (only ELF "
           "assembly and object files are supported)"));
    return true;
  }
  if (Reason.empty())
    R.PrefixSize = kernel::claimPadding(F, KernelTemplateSize);
  if (Reason.empty() || Calls)
    rsbstuff::requestPrefix(MF->getContext(), R);
  if (!Reason.empty())
    return Calls != 0;
  ++NumInstrumented;
  remarkKernelTemplate(Calls);
  return true;
}

void X86RSBStuff::remarkKernelTemplate(unsigned InitCalls) {
  MachineOptimizationRemarkEmitter ORE(*MF, nullptr);
  ORE.emit([&] {
    return MachineOptimizationRemark(DEBUG_TYPE, "Instrumented",
                                     MF->getFunction().getSubprogram(),
                                     &MF->front())
           << "'" << MF->getName() << "' instrumented: template in its "
           << "padding, " << ore::NV("Calls", InitCalls)
           << " .init.text calls accounted";
  });
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
  std::string Kernel = kernel::configProblem(TM);
  if (!Kernel.empty())
    return Kernel;
  if (kernel::enabled()) {
    for (const cl::Option *Opt : std::initializer_list<const cl::Option *>{
             &TLSForm, &ElideDepth, &Design, &ExternEntries, &ResetCredit,
             &ResetHelper, &TailAccount, &ReturnThunk, &ReturnCheckForm})
      if (Opt->getNumOccurrences())
        return ("x86-rsb-stuff: -" + Opt->ArgStr +
                " is a user-space option; -x86-rsb-stuff-kernel does not "
                "take it")
            .str();
  } else if (TM.getCodeModel() == CodeModel::Kernel) {
    return "x86-rsb-stuff: -mcmodel=kernel needs -x86-rsb-stuff-kernel";
  }
  if (ReturnCheckForm == ReturnCheck::Inline &&
      (Stats || Design == Variant::RetThunk))
    return std::string("x86-rsb-stuff: -x86-rsb-stuff-return-check=inline "
                       "does not combine with ") +
           (Stats ? "-x86-rsb-stuff-stats (it counts no returns)"
                  : "-x86-rsb-stuff-variant=ret-thunk (which counts nothing)");
  if (ElideDepth > 4)
    return "x86-rsb-stuff: -x86-rsb-stuff-elide-depth=" +
           std::to_string(ElideDepth) +
           " is unsafe: at most 4 RSB entries are spare above the counter's "
           "credit of 12";
  for (const cl::opt<std::string> *Opt :
       {&ReturnThunk, &TailAccount, &CounterSym, &StatsSym, &ResetHelper})
    if (!isValidSymbolName(*Opt))
      return ("x86-rsb-stuff: invalid symbol name '" + *Opt + "' for -" +
              Opt->ArgStr)
          .str();
  return "";
}

/// With -x86-rsb-stuff, joins the pipeline or reports why it cannot. Without
/// it, still joins x86-64 ELF pipelines, where the pass does nothing unless
/// the module carries the rsb-stuff flag: that is how LTO code generation in
/// the linker (which loads the plugin with --load-pass-plugin after parsing
/// its options) is instrumented.
static void addToPipeline(TargetMachine &TM, PassManagerBase &PM,
                          TargetPassConfig *PassConfig) {
  std::string Problem = configProblem(TM);
  if (!Problem.empty()) {
    if (Enable || kernel::enabled())
      PM.add(new RSBStuffConfigError(Problem));
    return;
  }
  installPrefixStreamer(const_cast<Target &>(TM.getTarget()));
  PassConfig->insertPass(&UnpackMachineBundlesID, &X86RSBStuff::ID);
}

namespace {

/// Records the command line's choices in the module, for the LTO code
/// generator (see addToPipeline). Runs at the start of clang's optimisation
/// pipeline when the plugin is loaded with -fpass-plugin.
struct RecordSettings : PassInfoMixin<RecordSettings> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!Enable)
      return PreservedAnalyses::all();
    M.setModuleFlag(Module::Max, EnableFlag, 1);
    if (Stats)
      M.setModuleFlag(Module::Max, StatsFlag, 1);
    // Merging modules keeps the smallest depth: the safe one.
    M.setModuleFlag(Module::Min, ElideFlag, ElideDepth);
    return PreservedAnalyses::all(); // Module flags feed no analysis.
  }
};

} // namespace

static void registerPassBuilderCallbacks(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(RecordSettings());
      });
}

static RegisterTargetPassConfigCallback RegisterCallback(addToPipeline);

/// Lets clang load the plugin with -fpass-plugin= as well as -fplugin=, and
/// lld with --load-pass-plugin=. The work is done by the codegen callback
/// above; the pass builder callback records the settings for LTO.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "rsb-stuff", "0.1.0",
          registerPassBuilderCallbacks};
}
