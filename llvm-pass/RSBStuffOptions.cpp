//===- RSBStuffOptions.cpp - Options and settings of rsb-stuff ------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Every user-space option, the settings one module gets from them (or from
// the module flags the compile step recorded, for code generated in the
// linker), and the configuration checks: an option value or a target the
// pass cannot serve is an error, never a silently uninstrumented output.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffOptions.h"
#include "RSBStuff.h"
#include "RSBStuffDepthTable.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace rsbstuff;

namespace rsbstuff::opts {

static cl::OptionCategory RSBCategory("rsb-stuff options");

cl::opt<bool> Enable("x86-rsb-stuff",
                     cl::desc("Call depth tracking: account calls in a "
                              "prefix before each function and check the "
                              "counter at each return, refilling the RSB"),
                     cl::init(false), cl::cat(RSBCategory));

cl::opt<std::string>
    ReturnThunk("x86-rsb-stuff-return-thunk",
                cl::desc("Return thunk that returns jump to (selects "
                         "the thunk form of returns)"),
                cl::init("__rsb_return_thunk"), cl::cat(RSBCategory));

cl::opt<ReturnCheck> ReturnCheckForm(
    "x86-rsb-stuff-return-check", cl::desc("Where a return accounts itself"),
    cl::values(clEnumValN(ReturnCheck::Auto, "auto",
                          "inline, but the thunk in functions optimised for "
                          "size (-Os, -Oz) or when "
                          "-x86-rsb-stuff-return-thunk names one (default)"),
               clEnumValN(ReturnCheck::Inline, "inline",
                          "`shlq $5` on the counter, `je` to the refill "
                          "helper, `ret`, in place (12-14 bytes more per "
                          "return, one jump less)"),
               clEnumValN(ReturnCheck::Thunk, "thunk",
                          "`jmp` to the return thunk")),
    cl::init(ReturnCheck::Auto), cl::cat(RSBCategory));

cl::opt<std::string> TailAccount(
    "x86-rsb-stuff-tail-account",
    cl::desc("Helper called before a tail call to code that may return with "
             "a plain ret (\"<name>_flags\" preserves RFLAGS)"),
    cl::init("__rsb_tail_account"), cl::cat(RSBCategory));

cl::opt<bool> CompactEntries(
    "x86-rsb-stuff-compact-entries",
    cl::desc("Functions optimised for size (-Os, -Oz) count their calls by "
             "calling the runtime's __rsb_count_call from their entry "
             "instead of holding the `sarq` (5 bytes instead of 10 or 12)"),
    cl::init(true), cl::cat(RSBCategory));

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

cl::opt<bool> CountIndirect(
    "x86-rsb-stuff-count-indirect",
    cl::desc("In executables, count an indirect call whose target carries "
             "the prefix mark of an accounting entry (a check reads the 10 "
             "bytes before the target), reset after the others"),
    cl::init(true), cl::cat(RSBCategory));

cl::opt<bool> CountTableCalls(
    "x86-rsb-stuff-count-table-calls",
    cl::desc("Count an indirect call whose target is loaded from a constant "
             "table of functions all instrumented in this module, with no "
             "mark check"),
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

cl::opt<std::string> LibraryDepths(
    "x86-rsb-stuff-libc-depths",
    cl::desc("Call depth table of the C library (utils/libc-depth output, "
             "several libraries concatenated): calls to its bounded "
             "functions cap the credit instead of clearing it"),
    cl::value_desc("file"), cl::cat(RSBCategory));

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

} // namespace rsbstuff::opts

using namespace rsbstuff::opts;

static constexpr StringLiteral EnableFlag = "rsb-stuff";
static constexpr StringLiteral StatsFlag = "rsb-stuff-stats";
static constexpr StringLiteral ElideFlag = "rsb-stuff-elide-depth";
static constexpr StringLiteral ReturnCheckFlag = "rsb-stuff-return-check";

static unsigned moduleFlag(const Module &M, StringRef Name) {
  if (auto *Value =
          mdconst::extract_or_null<ConstantInt>(M.getModuleFlag(Name)))
    return Value->getZExtValue();
  return 0;
}

/// Naming a return thunk asks for returns that jump to it; the ret-thunk
/// variant has nothing else.
static ReturnCheck commandLineReturnCheck() {
  if (Design == Variant::RetThunk)
    return ReturnCheck::Thunk;
  if (ReturnCheckForm == ReturnCheck::Auto && ReturnThunk.getNumOccurrences())
    return ReturnCheck::Thunk;
  return ReturnCheckForm;
}

/// The return check's module flag: 1 inline, 2 auto, 3 thunk, so that
/// merging modules with Module::Max keeps the smaller form; 0 (no flag,
/// bitcode from before the flag) reads as auto, anything else as the thunk.
static unsigned returnCheckFlagValue(ReturnCheck Form) {
  return static_cast<unsigned>(Form) + 1;
}

static ReturnCheck returnCheckFromFlag(unsigned Value) {
  if (Value == 0)
    return ReturnCheck::Auto;
  if (Value > returnCheckFlagValue(ReturnCheck::Thunk))
    return ReturnCheck::Thunk;
  return static_cast<ReturnCheck>(Value - 1);
}

ModuleSettings rsbstuff::settingsFor(const Module &M) {
  ModuleSettings S;
  bool Recorded = moduleFlag(M, EnableFlag);
  S.Enabled = Enable || kernel::enabled() || Recorded;
  S.LinkTime = !Enable && !kernel::enabled() && Recorded;
  S.Stats = Stats || moduleFlag(M, StatsFlag);
  S.ElideDepth = Enable ? unsigned(ElideDepth) : moduleFlag(M, ElideFlag);
  S.ReturnForm = Enable ? commandLineReturnCheck()
                        : returnCheckFromFlag(moduleFlag(M, ReturnCheckFlag));
  return S;
}

void rsbstuff::recordSettings(Module &M) {
  M.setModuleFlag(Module::Max, EnableFlag, 1);
  if (Stats)
    M.setModuleFlag(Module::Max, StatsFlag, 1);
  // Merging modules keeps the smallest depth: the safe one.
  M.setModuleFlag(Module::Min, ElideFlag, ElideDepth);
  // Either form accounts every return; where modules merged by full LTO
  // disagree, the smaller form wins (returnCheckFlagValue).
  M.setModuleFlag(Module::Max, ReturnCheckFlag,
                  returnCheckFlagValue(commandLineReturnCheck()));
  // Modules of one link compiled against different tables: the first one's
  // holds for all (RSBStuffDepthTable.cpp), with a warning; either is safe,
  // since the runtime arms a cap only for the build its table describes.
  if (!LibraryDepths.empty())
    M.setModuleFlag(Module::Warning, DepthTableFlag,
                    MDString::get(M.getContext(), LibraryDepths));
}

static bool isValidSymbolName(StringRef Name) {
  if (Name.empty() || isDigit(Name.front()))
    return false;
  return llvm::all_of(Name, [](char C) {
    return isAlnum(C) || C == '_' || C == '.' || C == '$';
  });
}

static std::string targetProblem(const TargetMachine &TM) {
  const Triple &TT = TM.getTargetTriple();
  if (TT.getArch() != Triple::x86_64 || TT.isX32())
    return "x86-rsb-stuff: target '" + TT.str() +
           "' is not supported: only x86-64 (LP64) is";
  if (!TT.isOSBinFormatELF())
    return "x86-rsb-stuff: target '" + TT.str() +
           "' is not supported: only ELF object files are";
  return "";
}

/// Hardening that rewrites returns or cannot coexist with the runtime's
/// plain `ret`s, by the target feature that turns it on.
std::string rsbstuff::featureProblem(StringRef Features) {
  SmallVector<StringRef, 16> List;
  Features.split(List, ',');
  for (StringRef Feature : List) {
    if (Feature == "+lvi-cfi" || Feature == "+lvi-load-hardening")
      return "-mlvi-cfi and -mlvi-hardening are not supported: they turn "
             "every return into `pop; lfence; jmp *`, which the return thunk "
             "cannot account, and the thunk's own `ret` is not LVI-hardened";
  }
  return "";
}

static std::string kernelOptionProblem(const TargetMachine &TM) {
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
  return "";
}

static std::string optionValueProblem() {
  if (ReturnCheckForm == ReturnCheck::Inline && Design == Variant::RetThunk)
    return "x86-rsb-stuff: -x86-rsb-stuff-return-check=inline does not "
           "combine with -x86-rsb-stuff-variant=ret-thunk (which counts "
           "nothing)";
  if (ReturnCheckForm == ReturnCheck::Inline && ReturnThunk.getNumOccurrences())
    return "x86-rsb-stuff: -x86-rsb-stuff-return-thunk names a thunk that "
           "-x86-rsb-stuff-return-check=inline never jumps to";
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

std::string rsbstuff::configProblem(const TargetMachine &TM) {
  for (std::string Problem :
       {targetProblem(TM), kernelOptionProblem(TM), optionValueProblem()})
    if (!Problem.empty())
      return Problem;
  std::string Features = featureProblem(TM.getTargetFeatureString());
  if (!kernel::enabled() && !Features.empty())
    return "x86-rsb-stuff: " + Features;
  return "";
}
