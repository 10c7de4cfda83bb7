//===- X86RSBStuff.h - The rsb-stuff MachineFunctionPass --------*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The pass that rewrites each function's final machine code. Its members are
// defined by idea: the driver and the prefix request in X86RSBStuff.cpp,
// call rewriting and credit resets in RSBStuffCalls.cpp, credit caps after
// calls into the C library in RSBStuffCaps.cpp, counted indirect calls in
// RSBStuffIndirectCalls.cpp, indirect calls through constant tables of
// instrumented functions in RSBStuffTableCalls.cpp, return and tail-call
// lowering (and the check that no exit is left unaccounted) in
// RSBStuffReturns.cpp, kernel mode in RSBStuffKernel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef RSBSTUFF_X86RSBSTUFF_H
#define RSBSTUFF_X86RSBSTUFF_H

#include "RSBStuff.h"
#include "RSBStuffOptions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/CodeGen/MachineFunctionPass.h"
#include "llvm/CodeGen/MachineInstr.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"

#include <memory>

namespace llvm {
class GlobalVariable;
class TargetInstrInfo;
class TargetLibraryInfo;
} // namespace llvm

namespace rsbstuff {

/// How calls to a function are treated.
enum class CalleeKind {
  Instrumented, ///< Defined here with a prefix: call its local entry.
  External,     ///< Resolved by name, maybe instrumented: `__rsb_entry.f`.
  Plain,        ///< Returns with a plain `ret` (or may): never counted.
};

/// Where an indirect call's mark check goes to the runtime's copy.
enum class SharedCheck { Never, Cold, Always };

class X86RSBStuff : public llvm::MachineFunctionPass {
public:
  static char ID;
  X86RSBStuff() : MachineFunctionPass(ID) {}

  llvm::StringRef getPassName() const override {
    return "X86 call depth tracking (rsb-stuff)";
  }
  void getAnalysisUsage(llvm::AnalysisUsage &AU) const override;
  bool runOnMachineFunction(llvm::MachineFunction &MF) override;
  bool doFinalization(llvm::Module &M) override;

private:
  llvm::MachineFunction *MF = nullptr;
  llvm::MCContext *LastContext = nullptr;
  const llvm::TargetInstrInfo *TII = nullptr;
  const llvm::TargetLibraryInfo *TLI = nullptr;
  const X86Names *Names = nullptr;
  const llvm::Module *SettingsModule = nullptr;
  ModuleSettings Settings;
  std::unique_ptr<CallDepth> Depth;
  /// The module takes the address of a function that returns twice (vfork,
  /// getcontext, setjmp): its calls through pointers are made at the site.
  bool TakesReturnsTwiceAddress = false;
  bool CurrentElided = false;
  /// This function's returns check the counter in place (lowerExits).
  bool CurrentInlineReturns = false;
  /// The profile says this function is cold: it takes the -Os forms.
  bool CurrentColdFunction = false;
  /// Returns and indirect calls in cold blocks (findColdCode).
  llvm::SmallPtrSet<const llvm::MachineInstr *, 8> ColdSites;
  /// Indirect calls in blocks that only the static estimate calls cold:
  /// counted through the runtime's shared mark check.
  llvm::SmallPtrSet<const llvm::MachineInstr *, 8> SharedCheckSites;
  /// Each return's block frequency relative to the function's entry.
  llvm::DenseMap<const llvm::MachineInstr *, double> ReturnFrequency;
  /// An in-place return check: its first instruction and its `ret`.
  struct InlineCheck {
    llvm::MachineInstr *First, *Ret;
  };
  llvm::SmallVector<InlineCheck, 4> InlineChecks;
  /// Cold returns, lowered once the others have their checks.
  llvm::SmallVector<llvm::MachineInstr *, 4> ColdReturns;
  unsigned KernelTemplateSize = 0;

  // X86RSBStuff.cpp: the driver.
  void prepareModule(const llvm::Module &M);
  bool instrument();
  void requestPrefix();
  bool keepsR11AtEntry() const;
  bool keepsR11AtExit() const;
  llvm::MCSymbol *symbolFor(llvm::StringRef Prefix,
                            const llvm::Function &F) const;
  llvm::MCSymbol *namedSymbol(const llvm::Twine &Name) const;
  unsigned targetFlag(llvm::StringRef Name) const;
  void diagnose(const llvm::Twine &Message, bool Warning = false) const;
  void remarkSkipped(llvm::StringRef Reason);
  void remarkElided();
  void remarkInstrumented(unsigned Calls, unsigned Returns, unsigned TailCalls,
                          unsigned Resets);

  // RSBStuffCalls.cpp: call rewriting and credit resets.
  bool isElided(const llvm::Function &F) const { return Depth->isElided(F); }
  CalleeKind classify(const llvm::MachineOperand &Target) const;
  /// AnyArguments: as if every call passed its arguments in registers
  /// (only to count the calls the stack-argument rule leaves plain).
  CalleeKind classifyFunction(const llvm::Function &F,
                              bool AnyArguments = false) const;
  /// Counts a call or tail call to Target that is plain only because a
  /// call of its callee passes stack arguments.
  void countStackArgumentCall(const llvm::MachineOperand &Target) const;
  bool isLibraryFunction(const llvm::Function &F) const;
  bool isShallow(const llvm::MachineOperand &Target) const;
  bool needsResetAfter(const llvm::MachineInstr &Call) const;
  void insertInlineReset(llvm::MachineBasicBlock &MBB,
                         llvm::MachineBasicBlock::iterator Pos);
  unsigned resetAfter(llvm::MachineInstr &Call);
  void insertReset(llvm::MachineBasicBlock &MBB,
                   llvm::MachineBasicBlock::iterator Pos);
  void retarget(llvm::MachineOperand &Target, llvm::StringRef Prefix);
  unsigned rewriteCalls(bool Instrumented, unsigned &Resets);
  unsigned resetAtLandingPads();
  unsigned resetAroundPatchableSleds();
  llvm::MachineInstrBuilder threadLocalOperand(
      llvm::MachineBasicBlock &MBB, llvm::MachineBasicBlock::iterator Pos,
      const llvm::DebugLoc &DL, llvm::StringRef Opcode, llvm::MCSymbol *Sym,
      int64_t Offset = 0, llvm::MCRegister Scratch = llvm::MCRegister());
  void shiftCounter(llvm::MachineBasicBlock &MBB,
                    llvm::MachineBasicBlock::iterator Pos,
                    const llvm::DebugLoc &DL, llvm::StringRef Opcode);
  void accountAtCallSite(llvm::MachineInstr &Call);

  // RSBStuffCaps.cpp: credit caps after calls into the C library.
  const llvm::GlobalVariable *
  capRecord(const llvm::MachineOperand &Target) const;
  bool scratchFreeAcross(const llvm::MachineInstr &Call,
                         llvm::MCRegister Target = {}) const;
  bool canCapAfter(const llvm::MachineInstr &Call) const;
  bool scratchFreeBeforeTail(const llvm::MachineInstr &TailCall,
                             llvm::MCRegister Target = {}) const;
  bool canCapBefore(const llvm::MachineInstr &TailCall) const;
  void insertCap(llvm::MachineBasicBlock &MBB,
                 llvm::MachineBasicBlock::iterator Pos,
                 const llvm::GlobalVariable &Record);
  bool capOrResetAfter(llvm::MachineInstr &Call,
                       llvm::MachineBasicBlock::iterator Pos);
  const llvm::GlobalVariable *
  defaultTargetRecord(const llvm::MachineInstr &Call) const;
  void insertDefaultTargetCheck(llvm::MachineBasicBlock &MBB,
                                const llvm::GlobalVariable &Record,
                                llvm::MachineBasicBlock &Other,
                                llvm::MachineBasicBlock &Capped,
                                const llvm::DebugLoc &DL);

  // RSBStuffIndirectCalls.cpp: indirect calls counted when the target is
  // marked.
  bool mayCheckMarks() const;
  bool canCountIndirect(const llvm::MachineInstr &Call) const;
  bool canCountIndirectTail(const llvm::MachineInstr &TailCall) const;
  void targetInR11(llvm::MachineInstr &Call);
  void insertMarkCheck(llvm::MachineBasicBlock &MBB,
                       llvm::MachineBasicBlock &Plain,
                       llvm::MachineBasicBlock &Counted,
                       const llvm::DebugLoc &DL, bool IntoCounted);
  void insertSharedMarkCheck(llvm::MachineBasicBlock &MBB,
                             llvm::MachineBasicBlock &Plain,
                             llvm::MachineBasicBlock &Counted,
                             const llvm::DebugLoc &DL);
  bool sharesUnder(SharedCheck Policy, const llvm::MachineInstr &Call) const;
  bool sharesIndirectCall(const llvm::MachineInstr &Call) const;
  void callThroughRuntime(llvm::MachineInstr &Call);
  void accountIndirectCall(llvm::MachineInstr &Call);
  void countIndirectCall(llvm::MachineInstr &Call);
  void countIndirectTailCall(llvm::MachineInstr &TailCall);

  // RSBStuffTableCalls.cpp: indirect calls through a constant table of
  // instrumented functions, counted without a check.
  bool holdsOnlyCountedFunctions(const llvm::GlobalVariable &Table) const;
  const llvm::MachineInstr *targetLoad(const llvm::MachineInstr &Call) const;
  bool canCountTableCall(const llvm::MachineInstr &Call) const;
  void countTableCall(llvm::MachineInstr &Call);

  // RSBStuffReturns.cpp: return and tail-call lowering.
  bool lowerReturnsOnly();
  bool lowerExits(bool WithTailCalls, unsigned &Returns, unsigned &TailCalls);
  bool lowerTerminator(llvm::MachineInstr &MI, unsigned &Returns,
                       unsigned &TailCalls);
  bool returnsInline() const;
  bool lowerReturn(llvm::MachineInstr &Ret);
  void checkReturnInline(llvm::MachineInstr &Ret);
  void lowerReturnToThunk(llvm::MachineInstr &Ret);
  void lowerTailCall(llvm::MachineInstr &TailCall);
  void accountTailCall(llvm::MachineInstr &TailCall);
  bool canCallFromFrame(const llvm::MachineInstr &TailCall) const;
  void moveStackPointer(llvm::MachineInstr &MI, int64_t Offset, bool CFAFromSP);
  void callFromFrame(llvm::MachineInstr &TailCall);
  void callBeforeTailCall(llvm::MachineInstr &TailCall,
                          llvm::ArrayRef<llvm::MCSymbol *> Helpers,
                          bool Conditional);
  bool isInlineCheckJump(const llvm::MachineInstr *MI) const;
  bool isAccountedExit(const llvm::MachineInstr &Exit) const;
  bool checkExits();

  // RSBStuffColdCode.cpp: compact forms where the code is cold.
  void findColdCode();
  bool isCold(const llvm::MachineInstr &MI) const {
    return ColdSites.contains(&MI);
  }
  bool isColdByEstimate(const llvm::MachineInstr &MI) const {
    return SharedCheckSites.contains(&MI);
  }
  bool optimisesForSize() const;
  void lowerColdReturns(llvm::ArrayRef<llvm::MachineInstr *> Cold);
  llvm::MachineBasicBlock *sharedCheckBlock(const InlineCheck &Check);

  // RSBStuffKernel.cpp: kernel mode.
  void prepareKernelModule(const llvm::Module &M);
  bool runKernel();
  std::vector<std::pair<llvm::MCSymbol *, llvm::MCSymbol *>>
  retargetKernelCalls();
  PrefixRequest kernelRequest();
  llvm::StringRef counterName() const;
  llvm::StringRef statsBlockName() const;
  void remarkKernelTemplate(unsigned InitCalls);
};

/// The call's target operand: the callee's global or symbol where there is
/// one (also inside a memory operand, `call *f@GOTPCREL(%rip)`, and in an
/// XRay tail-call sled), else the register or the first operand.
llvm::MachineOperand &calleeOperand(llvm::MachineInstr &Call);
const llvm::MachineOperand &calleeOperand(const llvm::MachineInstr &Call);

/// A call that ends its block with nowhere to go: the callee never returns.
bool isNoReturnCall(const llvm::MachineInstr &Call);
/// Whether Call clobbers Reg (its register mask does not preserve it).
bool clobbersRegister(const llvm::MachineInstr &Call, llvm::MCRegister Reg);

/// A call through LLVM's retpoline (-mretpoline): `call *%r11` in effect.
bool isRetpolineCall(const llvm::MachineInstr &Call);

} // namespace rsbstuff

#endif // RSBSTUFF_X86RSBSTUFF_H
