//===- RSBStuffLTO.cpp - What the compile step leaves for the link --------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// With -flto the compile step writes bitcode and the linker generates the
// code, in a process where no -mllvm option reaches the plugin before lld
// loads it (--load-pass-plugin). So the compile step, when clang loads the
// plugin with -fpass-plugin, leaves in each module, at the start of its
// optimisation pipeline:
//
//  - module flags with its settings (RSBStuffOptions.cpp), and the skip
//    list's functions marked as opted out (RSBStuffPrepare.cpp), as
//    RSB_NOSTUFF marks them in the source;
//  - the attribute "rsb-stuff-known" on every function. rsb-clang gives the
//    link a fallback entry for every function the bitcode references, and
//    only for those: code generated in the linker may call functions the
//    compile step never saw (_Unwind_Resume, __stack_chk_fail, atomic
//    libcalls, added by code generation itself), and those calls must stay
//    uncounted or the link fails on their missing entries;
//  - a link guard: an 8-byte note that references the undefined symbol
//    __rsb_stuff_lto_link_without_plugin. The code generation with the
//    plugin removes it (RSBStuffPrepare.cpp); a link that generates the
//    code without the plugin (plain clang -flto) fails on that symbol
//    instead of producing a silently uninstrumented program.
//
// Every other -x86-rsb-stuff-* option would be lost on the way, and the
// code generated in the linker would silently do what the option asked it
// not to (count indirect calls that must not read their targets' bytes,
// call the default runtime instead of the one named). So a compile step
// that writes bitcode for LTO refuses them, naming the option.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"
#include "RSBStuffOptions.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace rsbstuff;

/// Undefined everywhere: a link that keeps the guard fails on it.
static constexpr StringLiteral GuardTarget =
    "__rsb_stuff_lto_link_without_plugin";
/// An SHT_NOTE section outside any group: lld's and GNU ld's
/// --gc-sections keep it.
static constexpr StringLiteral GuardSection = ".note.rsb_stuff.lto_guard";

static void addLinkGuard(Module &M) {
  LLVMContext &Ctx = M.getContext();
  auto *Target = cast<GlobalVariable>(
      M.getOrInsertGlobal(GuardTarget, Type::getInt8Ty(Ctx)));
  auto *Guard = new GlobalVariable(
      M, PointerType::getUnqual(Ctx), /*isConstant=*/true,
      GlobalValue::InternalLinkage, Target, "__rsb_stuff.lto_guard");
  Guard->setSection(GuardSection);
  Guard->setAlignment(Align(8));
  // A sanitizer would give the guard red zones and metadata that refer to
  // it (ASan's instrumentation runs after the pipeline start), left behind
  // when the guard goes.
  GlobalValue::SanitizerMetadata NotSanitized;
  NotSanitized.NoAddress = true;
  NotSanitized.NoHWAddress = true;
  Guard->setSanitizerMetadata(NotSanitized);
  appendToUsed(M, {Guard});
}

bool rsbstuff::removeLinkGuard(Module &M) {
  SmallVector<GlobalVariable *, 2> Guards;
  for (GlobalVariable &GV : M.globals())
    if (GV.getSection() == GuardSection)
      Guards.push_back(&GV);
  if (Guards.empty())
    return false;
  removeFromUsedLists(M, [](Constant *C) {
    auto *GV = dyn_cast<GlobalVariable>(C->stripPointerCasts());
    return GV && GV->getSection() == GuardSection;
  });
  for (GlobalVariable *GV : Guards)
    GV->eraseFromParent();
  if (GlobalVariable *Target = M.getGlobalVariable(GuardTarget))
    if (Target->use_empty())
      Target->eraseFromParent();
  return true;
}

namespace {

/// Runs at the start of clang's optimisation pipeline when the plugin is
/// loaded with -fpass-plugin (never in the linker's own pipelines).
struct RecordForLink : PassInfoMixin<RecordForLink> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!opts::Enable)
      return PreservedAnalyses::all();
    recordSettings(M);
    markSkipListed(M);
    for (Function &F : M)
      F.addFnAttr(KnownAttr);
    addLinkGuard(M);
    return PreservedAnalyses::none();
  }
};

/// Runs last in clang's optimisation pipeline of a compile step that writes
/// bitcode for LTO.
struct RefuseLostOptions : PassInfoMixin<RefuseLostOptions> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (!opts::Enable)
      return PreservedAnalyses::all();
    for (StringRef Option : lostOptions())
      M.getContext().diagnose(DiagnosticInfoGeneric(
          "x86-rsb-stuff: -" + Option +
              " does not reach the code generated at link time (-flto): "
              "build this file without -flto, or without the option",
          DS_Error));
    return PreservedAnalyses::all();
  }
};

} // namespace

/// Whether the code generated in the linker still gets what the option
/// asked for: recorded in the module flags (the depth table's file too) or
/// in the IR.
static bool reachesTheLink(StringRef Option) {
  return StringSwitch<bool>(Option)
      .Cases({"x86-rsb-stuff", "x86-rsb-stuff-stats",
              "x86-rsb-stuff-elide-depth", "x86-rsb-stuff-return-check",
              "x86-rsb-stuff-skip", "x86-rsb-stuff-skip-file",
              "x86-rsb-stuff-libc-depths"},
             true)
      .Default(false);
}

std::vector<StringRef> rsbstuff::lostOptions() {
  std::vector<StringRef> Lost;
  for (const auto &[Name, Option] : cl::getRegisteredOptions())
    if (Name.starts_with("x86-rsb-stuff") && Option->getNumOccurrences() &&
        !reachesTheLink(Name))
      Lost.push_back(Name);
  llvm::sort(Lost);
  return Lost;
}

static bool writesBitcodeForLTO(ThinOrFullLTOPhase Phase) {
  return Phase == ThinOrFullLTOPhase::ThinLTOPreLink ||
         Phase == ThinOrFullLTOPhase::FullLTOPreLink;
}

void rsbstuff::registerCompileStepPasses(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(RecordForLink());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (writesBitcodeForLTO(Phase))
          MPM.addPass(RefuseLostOptions());
      });
}
