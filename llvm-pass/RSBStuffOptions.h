//===- RSBStuffOptions.h - Options and settings of rsb-stuff ----*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The user-space -x86-rsb-stuff* options (kernel mode has its own, in
// RSBStuffKernel.cpp), what they amount to for one module, and the checks
// that refuse combinations the pass cannot serve.
//
//===----------------------------------------------------------------------===//

#ifndef RSBSTUFF_RSBSTUFFOPTIONS_H
#define RSBSTUFF_RSBSTUFFOPTIONS_H

#include "llvm/Support/CommandLine.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace rsbstuff {

enum class TLSChoice { Auto, LocalExec, InitialExec };

/// Where a return shifts the counter back (docs/performance.md measures both).
enum class ReturnCheck { Inline, Auto, Thunk };

/// Designs to compare (docs/performance.md); only `prefix` is the product.
enum class Variant { Prefix, CallThunks, CallSite, RetThunk };

namespace opts {
extern llvm::cl::opt<bool> Enable;
extern llvm::cl::opt<std::string> ReturnThunk;
extern llvm::cl::opt<ReturnCheck> ReturnCheckForm;
extern llvm::cl::opt<std::string> TailAccount;
extern llvm::cl::opt<std::string> CounterSym;
extern llvm::cl::opt<bool> CompactEntries;
extern llvm::cl::opt<bool> Stats;
extern llvm::cl::opt<std::string> StatsSym;
extern llvm::cl::opt<TLSChoice> TLSForm;
extern llvm::cl::opt<bool> ExternEntries;
extern llvm::cl::opt<bool> ResetCredit;
extern llvm::cl::opt<bool> CountIndirect;
extern llvm::cl::opt<bool> CountTableCalls;
extern llvm::cl::opt<std::string> ResetHelper;
extern llvm::cl::list<std::string> SkipList;
extern llvm::cl::opt<std::string> SkipFile;
extern llvm::cl::opt<unsigned> ElideDepth;
extern llvm::cl::opt<Variant> Design;
extern llvm::cl::opt<std::string> LibraryDepths;
} // namespace opts

/// What -x86-rsb-stuff* asked for, from the command line or, for code
/// generated inside the linker (LTO, where no -mllvm option reaches the
/// plugin before it is loaded), from the module flags the compile step left.
struct ModuleSettings {
  bool Enabled = false;
  bool Stats = false;
  unsigned ElideDepth = 0;
  ReturnCheck ReturnForm = ReturnCheck::Auto;
  /// Code generation in the linker: only functions the compile step saw
  /// are known to the link's entry fallbacks (RSBStuffLTO.cpp).
  bool LinkTime = false;
};

ModuleSettings settingsFor(const llvm::Module &M);

/// Records the command line's settings in M's module flags (LTO).
void recordSettings(llvm::Module &M);

/// Why -x86-rsb-stuff cannot serve TM, or an empty string.
std::string configProblem(const llvm::TargetMachine &TM);

/// Why code built with these target features (a "target-features" string)
/// cannot be instrumented, or an empty string.
std::string featureProblem(llvm::StringRef Features);

} // namespace rsbstuff

#endif // RSBSTUFF_RSBSTUFFOPTIONS_H
