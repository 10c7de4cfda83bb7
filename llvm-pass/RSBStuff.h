//===- RSBStuff.h - Shared state of the rsb-stuff plugin --------*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The plugin has two halves that meet at one point in the AsmPrinter:
//
//  - X86RSBStuff.cpp, a MachineFunctionPass that runs right before emission,
//    lowers returns and redirects calls. For every instrumented function it
//    files a PrefixRequest.
//  - RSBStuffStreamer.cpp, an MCTargetStreamer whose emitLabel() hook runs
//    when the AsmPrinter emits a function's entry label but before the label
//    is placed. It takes the PrefixRequest and emits the accounting prefix, so
//    the prefix ends exactly at the entry.
//
// A MachineFunctionPass cannot emit bytes in front of its own entry label;
// this hand-off is the only route that produces real instructions and
// relocations there (see docs/design.md). docs/design.md also has a map of
// which file holds which idea.
//
//===----------------------------------------------------------------------===//

#ifndef RSBSTUFF_RSBSTUFF_H
#define RSBSTUFF_RSBSTUFF_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCDirectives.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Support/Alignment.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class CallBase;
class DISubprogram;
class Function;
class MachineFunction;
class MCCodeEmitter;
class MCContext;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class MCSymbol;
class Module;
class ModulePass;
class PassBuilder;
class Target;
class TargetLibraryInfo;
class TargetMachine;
} // namespace llvm

namespace rsbstuff {

class X86Names;

/// Prefix of the accounting entry symbol: calls to `f` go to `__rsb_entry.f`.
inline constexpr llvm::StringLiteral EntryPrefix = "__rsb_entry.";
/// Prefix of the tail-call alias: `__rsb_tail.f` enters `f` without the
/// accounting, from an address of its own (RSBStuffStreamer.cpp). A tail call
/// to an external function jumps there; a fallback that accounts the return
/// takes its place when the callee is not instrumented.
inline constexpr llvm::StringLiteral TailPrefix = "__rsb_tail.";
/// Prefix of the local, zero-sized marker at the start of a weak or inline
/// function's instrumented code: the link may resolve `f` to another copy
/// (built without rsb-stuff), and rsb-verify still finds this one's code.
/// Zero-sized, so symbolizers keep naming the address `f`.
inline constexpr llvm::StringLiteral BodyPrefix = "__rsb_body.";

/// Marks a function that the user opted out (RSB_NOSTUFF in rsb_stuff.h, or
/// the skip list); the value says which.
inline constexpr llvm::StringLiteral OptOutAttr = "rsb-stuff-skip";

/// Marks an ifunc resolver (RSBStuffPrepare.cpp): not instrumented, and its
/// calls are left alone too, not sent to accounting entries, which touch
/// the counter.
inline constexpr llvm::StringLiteral ResolverAttr = "rsb-stuff-resolver";

/// Marks every function of a module compiled with -x86-rsb-stuff: the link
/// saw its name, so it has an entry or a fallback (RSBStuffLTO.cpp).
inline constexpr llvm::StringLiteral KnownAttr = "rsb-stuff-known";

/// Marks a function every call of which in the module passes all its
/// arguments in registers (RSBStuffPrepare.cpp): only those may be called
/// through `__rsb_entry.f` and `__rsb_tail.f` by name, whose link-time
/// fallback calls f from a frame of its own, 16 bytes lower, where stack
/// arguments would not be where f looks for them.
inline constexpr llvm::StringLiteral RegisterArgsAttr =
    "rsb-stuff-register-args";
/// The pass that checks the marks against instruction selection's call
/// frames (RSBStuffStackArgs.cpp).
extern char &StackArgsCheckID;

/// How the accounting instruction reaches the per-thread counter.
enum class CounterForm {
  LocalExec,   ///< sarq $5, %fs:ctr@tpoff (counter in the executable)
  InitialExec, ///< movq ctr@gottpoff(%rip), %r11; sarq $5, %fs:(%r11)
  Direct, ///< sarq $5, [%seg:]ctr+offset[(%rip)]: the kernel's per-CPU form
};

/// Segment override of a Direct counter reference.
enum class Segment { None, FS, GS };

/// Where the accounting entry of a function goes.
enum class EntryPlacement {
  Prefix,    ///< Right before the entry, falling through into it.
  OutOfLine, ///< `sarq; jmp f` in .text.rsb_call_thunks (the kernel's layout,
             ///< for comparison).
  Padding    ///< The last bytes of the -fpatchable-function-entry padding,
             ///< where the kernel's boot-time patcher puts its template.
};

/// Everything the streamer needs to emit one function's prefix.
struct PrefixRequest {
  llvm::MCSymbol *Function = nullptr;
  llvm::MCSymbol *Entry = nullptr;
  llvm::MCSymbol *TailAlias = nullptr;  ///< Null for local functions.
  llvm::MCSymbol *BodyMarker = nullptr; ///< Weak and inline functions only.
  /// Padding placement: `__pfx_f`, the FUNC symbol spanning the padding.
  llvm::MCSymbol *PaddingSymbol = nullptr;
  llvm::MCSymbolAttr Binding = llvm::MCSA_Invalid;    ///< Global, Weak or none.
  llvm::MCSymbolAttr Visibility = llvm::MCSA_Invalid; ///< Hidden, Protected.
  llvm::MCSymbol *Counter = nullptr;
  llvm::MCSymbol *StatsBlock = nullptr; ///< Non-null in statistics mode.
  CounterForm Form = CounterForm::LocalExec;
  /// Direct form only: added to Counter (and to StatsBlock), the segment, and
  /// whether the reference is %rip-relative or absolute.
  int64_t CounterOffset = 0;
  Segment Seg = Segment::None;
  bool RIPRelative = true;
  /// Prefix placement: the room for the tail stub and the accounting in
  /// front of f, beyond which the stub goes out of line (the filler in
  /// front of them only serves the alignment); padding placement: the whole
  /// padding.
  unsigned PrefixSize = 16;
  /// Save and restore %r11 around the initial-exec counter access: it
  /// carries an argument, or the convention preserves it.
  bool KeepR11 = false;
  /// Code optimised for size: the entry calls this runtime function, which
  /// shifts the counter, instead of holding the `sarq` itself.
  llvm::MCSymbol *CountCall = nullptr;
  /// Start the entry with ENDBR64 (-fcf-protection=branch): it is reached
  /// through PLTs and GOT slots, which are indirect branches.
  bool Endbr = false;
  /// Debug info: the line-table row of the prefix is the function's line.
  const llvm::DISubprogram *Subprogram = nullptr;
  llvm::Align FunctionAlign = llvm::Align(16);
  /// Place f off the multiples of 64 (FunctionAlign bytes past a boundary
  /// of twice that, from 64 on), so that f never starts a page: the
  /// indirect-call check treats a target there as unmarked (the bytes
  /// before it could lie on an unmapped page).
  bool OffPageStart = false;
  /// f has a section of its own (-ffunction-sections, COMDAT), which the
  /// anchor's alignment becomes: there FunctionAlign bytes past a boundary
  /// of twice that, the smaller section alignment.
  bool OwnSection = false;
  bool EmitCFI = false;
  EntryPlacement Placement = EntryPlacement::Prefix;
  /// No accounting: the entry is an alias of f, and the tail alias an
  /// out-of-line `call TailAccount; jmp f`.
  bool Elided = false;
  llvm::MCSymbol *TailAccount = nullptr;
  /// Padding placement: emit no template (the function is not instrumented),
  /// only the init thunks.
  bool ThunksOnly = false;
  /// Padding placement: (thunk, callee) pairs, each emitted once per output
  /// as `thunk: <accounting>; jmp callee` in .init.text, for the calls from
  /// .init.text that the kernel's boot-time patcher never sees.
  std::vector<std::pair<llvm::MCSymbol *, llvm::MCSymbol *>> InitThunks;
  const llvm::MCSubtargetInfo *STI = nullptr;
};

/// Whether a function's whole call subtree fits the RSB's spare entries
/// (RSBStuffElision.cpp). Results are cached per function.
class CallDepth {
public:
  using Predicate = std::function<bool(const llvm::Function &)>;

  /// Limit 0 turns elision off. CanElide says whether a defined function may
  /// be elided at all (instrumentable, and the definition that runs);
  /// IsLeafDeclaration whether an external function is a known leaf.
  CallDepth(unsigned Limit, Predicate CanElide, Predicate IsLeafDeclaration);

  bool isElided(const llvm::Function &F);

private:
  static constexpr unsigned TooDeep = ~0u;
  unsigned Limit;
  Predicate CanElide, IsLeafDeclaration;
  llvm::DenseMap<const llvm::Function *, unsigned> Memo;

  unsigned depth(const llvm::Function &F);
  unsigned callDepth(const llvm::CallBase &Call);
};

//===- Eligibility (RSBStuffEligibility.cpp) ------------------------------===//

/// Why F is left out on purpose (a remark), or an empty string.
llvm::StringRef skipReason(const llvm::Function &F);
/// Why F, which the user did not leave out, cannot be instrumented (an
/// error), or an empty string.
std::string refusalReason(const llvm::Function &F,
                          const llvm::TargetMachine &TM);
/// A definition that gets an accounting entry and returns through the thunk.
bool isInstrumented(const llvm::Function &F, const llvm::TargetMachine &TM);
/// Whether the calling convention pops its stack arguments (`ret $n`).
bool popsArguments(unsigned CallingConv, const llvm::TargetMachine &TM);
/// Whether the AsmPrinter puts data right before F's entry, so that its
/// accounting entry goes out of line.
bool hasDataBeforeEntry(const llvm::Function &F);
/// The rsb-stuff runtime: never instrumented, and its functions are leaves.
bool isRuntimeFunction(llvm::StringRef Name);
/// A memory function the code generator calls on its own (memcpy...).
bool isImplicitLibcall(llvm::StringRef Name);
/// An external function known to push and pop a single RSB entry.
bool isShallowDeclaration(const llvm::Function &F,
                          const llvm::TargetLibraryInfo &TLI);

//===- IR passes (RSBStuffPrepare.cpp, RSBStuffLTO.cpp) -------------------===//

/// The IR preparation at the start of code generation.
llvm::ModulePass *createPreparePass(const llvm::TargetMachine &TM);
/// Registers what the compile step records for the link (LTO).
void registerCompileStepPasses(llvm::PassBuilder &PB);
/// Removes the LTO link guard; returns whether there was one.
bool removeLinkGuard(llvm::Module &M);
/// Marks the functions of -x86-rsb-stuff-skip and -x86-rsb-stuff-skip-file
/// as opted out (RSBStuffPrepare.cpp).
void markSkipListed(llvm::Module &M);
/// The -x86-rsb-stuff-* options given on the command line that code
/// generated in the linker would not see (RSBStuffLTO.cpp), sorted.
std::vector<llvm::StringRef> lostOptions();
/// Adds a cap record for each C library function M calls whose depth the
/// table bounds (RSBStuffCaps.cpp); returns whether it added one.
bool addCapRecords(llvm::Module &M, const llvm::TargetMachine &TM);
/// The name of the cap record for calls to the symbol Callee.
std::string capRecordName(llvm::StringRef Callee);

//===- The prefix ---------------------------------------------------------===//

/// How the functions of MF's module reach the counter.
CounterForm counterForm(const llvm::MachineFunction &MF);
/// R's entry symbols get F's binding and visibility.
void describeSymbols(PrefixRequest &R, const llvm::Function &F);
/// Whether an indirect call may reach F and find its mark
/// (RSBStuffIndirectCalls.cpp), given the form of its prefix.
bool mayBeMarkedTarget(const llvm::Function &F, CounterForm Form);

/// Files the prefix for the next emitLabel(Request.Function) in Ctx.
void requestPrefix(llvm::MCContext &Ctx, const PrefixRequest &Request);

/// The instructions of Request's accounting entry (RSBStuffAccounting.cpp).
llvm::SmallVector<llvm::MCInst, 8>
accountingSequence(llvm::MCContext &Ctx, const PrefixRequest &Request,
                   const X86Names &Names);
/// Their encoded size.
unsigned encodedSize(llvm::MCCodeEmitter &Emitter,
                     llvm::ArrayRef<llvm::MCInst> Insts,
                     const llvm::MCSubtargetInfo &STI);
/// The X86 target as it was before installPrefixStreamer: its own
/// streamers serve other object formats, its encoder sizes sequences.
llvm::Target &originalTarget();

/// Bytes of the accounting sequence Request asks for (its instructions only,
/// without filler).
unsigned accountingSize(llvm::MCContext &Ctx, const PrefixRequest &Request);

/// Forgets the request no streamer took (code generation that stops before
/// emission: llc -stop-after, -run-pass on MIR).
void dropPendingRequest(llvm::MCContext &Ctx);

/// Installs the rsb-stuff target streamers for T (once per process). Other
/// object formats keep the target's own streamers.
void installPrefixStreamer(llvm::Target &T);

/// Linux kernel mode (RSBStuffKernel.cpp): the kernel's template in the last
/// bytes of each function's -fpatchable-function-entry padding.
namespace kernel {
/// The kernel's name for the symbol that spans a function's padding.
inline constexpr llvm::StringLiteral PaddingPrefix = "__pfx_";
/// Prefix of the thunks that account calls from .init.text.
inline constexpr llvm::StringLiteral InitThunkPrefix = "__rsb_init_thunk.";
bool enabled();
/// Why the kernel options cannot serve TM, or an empty string.
std::string configProblem(const llvm::TargetMachine &TM);
/// Why F gets no template, or an empty string. Decided on the IR alone, so
/// that callers in the module agree with the callee.
llvm::StringRef skipReason(const llvm::Function &F,
                           const llvm::TargetMachine &TM,
                           unsigned TemplateSize);
/// Shortens F's padding NOPs by TemplateSize, for the template to take their
/// place; returns the padding's full size.
unsigned claimPadding(llvm::Function &F, unsigned TemplateSize);
/// Whether the pass accounts F's calls (the boot-time patcher never will).
bool accountsCallsFrom(const llvm::Function &F);
/// Whether a call from .init.text to Callee is accounted (through a thunk).
bool accountsInitCall(const llvm::Function &Callee,
                      const llvm::TargetMachine &TM, unsigned TemplateSize);
/// Fills in how R reaches the per-CPU counter.
void describeCounter(PrefixRequest &R);
} // namespace kernel

/// Opcode and register numbers of the X86 target, found by name: the X86
/// enums are private to LLVM, but their names are part of the MC tables.
class X86Names {
public:
  static const X86Names &get(const llvm::MCInstrInfo &MII,
                             const llvm::MCRegisterInfo &MRI);
  unsigned opcode(llvm::StringRef Name) const;
  llvm::MCRegister reg(llvm::StringRef Name) const;

private:
  llvm::StringMap<unsigned> Opcodes;
  llvm::StringMap<unsigned> Registers;
};

} // namespace rsbstuff

#endif // RSBSTUFF_RSBSTUFF_H
