//===- RSBStuffRegistration.cpp - How the plugin joins clang, llc and lld -===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Loaded with -fplugin= or -fpass-plugin= into clang, -load into llc and
// --load-pass-plugin= into lld, the plugin joins every x86-64 code
// generation pipeline: the IR preparation first (RSBStuffPrepare.cpp), the
// MachineFunctionPass after UnpackMachineBundles, the last X86 pass before
// the AsmPrinter. A pipeline the pass cannot serve gets an error instead,
// when the module asked for instrumentation.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"
#include "RSBStuffOptions.h"
#include "X86RSBStuff.h"

#include "llvm/CodeGen/Passes.h"
#include "llvm/CodeGen/TargetPassConfig.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Pass.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Target/RegisterTargetPassConfigCallback.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using namespace rsbstuff;

namespace {

/// Reports a configuration error through the LLVMContext, so that clang,
/// llc and lld print `error: ...` and exit non-zero, for every module that
/// asked for instrumentation (on the command line, or in its module flags
/// when the linker generates its code).
class RSBStuffConfigError : public ModulePass {
public:
  static char ID;
  explicit RSBStuffConfigError(std::string Message = "")
      : ModulePass(ID), Message(std::move(Message)) {}
  StringRef getPassName() const override { return "rsb-stuff config error"; }
  bool runOnModule(Module &M) override {
    if (settingsFor(M).Enabled)
      M.getContext().diagnose(DiagnosticInfoGeneric(Message, DS_Error));
    return false;
  }

private:
  std::string Message;
};

} // namespace

char RSBStuffConfigError::ID = 0;

/// Joins every x86-64 ELF pipeline: the passes do nothing unless the module
/// asks for instrumentation, on the command line or in the module flags
/// that LTO code generation in the linker (which loads the plugin after
/// parsing its options) finds there.
static void addToPipeline(TargetMachine &TM, PassManagerBase &PM,
                          TargetPassConfig *PassConfig) {
  const Triple &TT = TM.getTargetTriple();
  std::string Problem = configProblem(TM);
  if (!Problem.empty()) {
    // Other targets (offloading, say) compile in the same process: only an
    // x86-64 pipeline, or a command line that asked, hears of it.
    if (opts::Enable || kernel::enabled() || TT.getArch() == Triple::x86_64)
      PM.add(new RSBStuffConfigError(Problem));
    return;
  }
  installPrefixStreamer(const_cast<Target &>(TM.getTarget()));
  PM.add(createPreparePass(TM));
  PassConfig->insertPass(&FinalizeISelID, &StackArgsCheckID);
  PassConfig->insertPass(&UnpackMachineBundlesID, &X86RSBStuff::ID);
}

static RegisterTargetPassConfigCallback RegisterCallback(addToPipeline);

/// Lets clang load the plugin with -fpass-plugin= as well as -fplugin=, and
/// lld with --load-pass-plugin=. The work is done by the codegen callback
/// above; the pass builder callback records what the link needs (LTO).
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "rsb-stuff", "0.1.0",
          registerCompileStepPasses};
}
