//===- RSBStuffPrepare.cpp - IR preparation before code generation --------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The first pass of every code generation the plugin joins, before
// instruction selection. Everything the rsb-stuff passes change in the IR is
// changed here, once per module, so that the MachineFunctionPass only reads
// it:
//
//  - the user's opt-outs (RSB_NOSTUFF, the skip list) and ifunc resolvers
//    become an attribute on each function, so that callers and callees
//    agree;
//  - the COMDAT group of each instrumented inline function (and template
//    instantiation) is renamed `__rsb_entry.<group>`. An object built
//    without rsb-stuff keeps its own copy under the original name: the
//    linker keeps both groups instead of dropping the one that defines
//    `__rsb_entry.f`, whichever object comes first. `f` itself may resolve
//    to either copy; `__rsb_entry.f` and `__rsb_tail.f` always to the
//    instrumented one. Groups that also hold data are left alone (two
//    copies of data would not be harmless), and calls to their functions
//    stay uncounted (RSBStuffCalls.cpp);
//  - with debug info, a declaration for each `__rsb_entry.f` and
//    `__rsb_tail.f` that calls may be sent to, carrying a declaration of f's
//    subprogram: the retargeted call keeps its DW_TAG_call_site entry;
//  - a cap record for each C library function of bounded depth that the
//    module calls (RSBStuffCaps.cpp), from the table the compile step
//    recorded when the linker generates the code;
//  - every function that the module only calls with all arguments in
//    registers is marked (RegisterArgsAttr): only those are called by name
//    through entries, whose link-time fallback calls the callee from a
//    frame of its own (utils/rsb-ld.in), 16 bytes below the caller's stack
//    arguments;
//  - the LTO link guard is removed (RSBStuffLTO.cpp).
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"
#include "RSBStuffDepthTable.h"
#include "RSBStuffOptions.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSymbol.h"
#include "llvm/Pass.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Target/TargetMachine.h"

#include <atomic>

using namespace llvm;
using namespace rsbstuff;

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

/// The symbols of -x86-rsb-stuff-skip and -x86-rsb-stuff-skip-file, read
/// once per process: the compile step (RSBStuffLTO.cpp) and code generation
/// both mark them, and an unreadable file is one error, not two.
struct SkipNames {
  StringSet<> Names;
  std::string Error;
};

static SkipNames readSkipList() {
  SkipNames Result;
  for (const std::string &Name : opts::SkipList)
    Result.Names.insert(Name);
  if (opts::SkipFile.empty())
    return Result;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(opts::SkipFile);
  if (!Buffer) {
    Result.Error = "x86-rsb-stuff: cannot read -x86-rsb-stuff-skip-file '" +
                   opts::SkipFile + "': " + Buffer.getError().message();
    return Result;
  }
  SmallVector<StringRef, 64> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.split('#').first.trim();
    if (!Line.empty())
      Result.Names.insert(Line);
  }
  return Result;
}

void rsbstuff::markSkipListed(Module &M) {
  static const SkipNames Skip = readSkipList();
  static std::atomic<bool> Reported{false};
  if (!Skip.Error.empty() && !Reported.exchange(true))
    M.getContext().diagnose(DiagnosticInfoGeneric(Skip.Error, DS_Error));
  if (Skip.Names.empty())
    return;
  Mangler Mang;
  for (Function &F : M) {
    SmallString<64> Symbol;
    Mang.getNameWithPrefix(Symbol, &F, /*CannotUsePrivateLabel=*/false);
    if (Skip.Names.contains(Symbol))
      F.addFnAttr(OptOutAttr, "in the skip list");
  }
}

static void markOptOuts(Module &M) {
  for (Function *F : annotatedOptOuts(M))
    F->addFnAttr(OptOutAttr, "marked rsb_nostuff");
  // A resolver (the user's ifunc, or clang's for target_clones and
  // multiversioned functions) runs once, when the symbol is bound: in a
  // static program from the C library's start-up, before there is a thread
  // pointer for the counter. Nothing to protect, nothing to count.
  for (GlobalIFunc &IFunc : M.ifuncs()) {
    if (Function *Resolver = IFunc.getResolverFunction()) {
      Resolver->addFnAttr(OptOutAttr, "ifunc resolver (runs once, when the "
                                      "symbol is bound)");
      Resolver->addFnAttr(ResolverAttr);
    }
  }
  markSkipListed(M);
}

/// Whether the call passes every argument in a register under the x86-64
/// C convention (System V psABI, 3.2.3: six integer-class and eight
/// SSE-class registers), so that rsb-ld's fallback frame, which calls the
/// callee with the stack 16 bytes lower, passes them unchanged. From the
/// call site's own types (a call through another prototype, varargs'
/// promoted arguments). Conservative: any argument whose class it does not
/// know counts as one in memory.
static bool passesArgumentsInRegisters(const CallBase &CB) {
  constexpr unsigned IntegerRegisters = 6, SSERegisters = 8;
  if (CB.getCallingConv() != CallingConv::C)
    return false;
  // A musttail call must stay a jump: a frame around the callee (rsb-ld's
  // fallback, or the tail call's own, RSBStuffReturns.cpp) would grow the
  // stack at every step of a loop of such calls. (A variadic one also
  // forwards its caller's stack arguments, which its operands do not show.)
  if (CB.isMustTailCall())
    return false;
  unsigned Integer = 0, SSE = 0;
  // A result that does not fit in %rax:%rdx or %xmm0:%xmm1 is returned
  // through a hidden pointer in %rdi.
  Type *Result = CB.getType();
  if (!Result->isVoidTy() && !Result->isPointerTy() &&
      !(Result->isIntegerTy() && Result->getIntegerBitWidth() <= 128) &&
      !Result->isFloatingPointTy() &&
      !(Result->isVectorTy() &&
        Result->getPrimitiveSizeInBits().getKnownMinValue() <= 128))
    Integer = 1;
  for (unsigned I = 0, E = CB.arg_size(); I != E; ++I) {
    if (CB.isByValArgument(I) || CB.isInAllocaArgument(I) ||
        CB.paramHasAttr(I, Attribute::Preallocated))
      return false;
    Type *T = CB.getArgOperand(I)->getType();
    if (T->isPointerTy() ||
        (T->isIntegerTy() && T->getIntegerBitWidth() <= 64)) {
      ++Integer;
    } else if (T->isIntegerTy() && T->getIntegerBitWidth() <= 128) {
      // Both halves in registers or the whole in memory.
      Integer += 2;
    } else if (T->isHalfTy() || T->isBFloatTy() || T->isFloatTy() ||
               T->isDoubleTy() || T->isFP128Ty()) {
      ++SSE;
    } else if (auto *V = dyn_cast<FixedVectorType>(T);
               V && V->getPrimitiveSizeInBits() == 128) {
      ++SSE;
    } else if (V && V->getPrimitiveSizeInBits() < 128) {
      // Short vectors: either class, counted in both.
      ++Integer;
      ++SSE;
    } else {
      return false; // x86_fp80, wide vectors, aggregates: memory
    }
    if (Integer > IntegerRegisters || SSE > SSERegisters)
      return false;
  }
  return Integer <= IntegerRegisters;
}

/// Marks the functions that every call of the module passes all arguments
/// in registers (RegisterArgsAttr): only those are called through entries
/// by name (RSBStuffCalls.cpp). A function the module calls in no way the
/// pass sees stays unmarked, and so uncounted.
static void markRegisterArgumentCallees(Module &M) {
  SmallPtrSet<const Function *, 32> InRegisters, OnStack;
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        const auto *CB = dyn_cast<CallBase>(&I);
        const auto *Callee =
            CB ? dyn_cast<Function>(CB->getCalledOperand()->stripPointerCasts())
               : nullptr;
        if (!Callee || Callee->isIntrinsic())
          continue;
        (passesArgumentsInRegisters(*CB) ? InRegisters : OnStack)
            .insert(Callee);
      }
  for (Function &F : M) {
    F.removeFnAttr(RegisterArgsAttr);
    if (InRegisters.contains(&F) && !OnStack.contains(&F) &&
        F.getCallingConv() == CallingConv::C)
      F.addFnAttr(RegisterArgsAttr);
  }
}

/// Renames the COMDAT groups whose functions are instrumented and that hold
/// no data (see the file comment).
static void renameInstrumentedGroups(Module &M, const TargetMachine &TM) {
  SmallPtrSet<Comdat *, 16> Instrumented, HoldData;
  for (GlobalObject &GO : M.global_objects()) {
    Comdat *Group = GO.getComdat();
    if (!Group || Group->getSelectionKind() != Comdat::Any)
      continue;
    const auto *F = dyn_cast<Function>(&GO);
    if (!F)
      HoldData.insert(Group);
    else if (isInstrumented(*F, TM))
      Instrumented.insert(Group);
  }
  for (GlobalObject &GO : M.global_objects()) {
    Comdat *Group = GO.getComdat();
    if (Instrumented.contains(Group) && !HoldData.contains(Group))
      GO.setComdat(M.getOrInsertComdat((EntryPrefix + Group->getName()).str()));
  }
}

/// A subprogram a declaration may carry: f's own if it is one, else a
/// declaration of f's definition.
static DISubprogram *declarationOf(DISubprogram *SP) {
  if (!SP->isDistinct())
    return SP;
  if (DISubprogram *Decl = SP->getDeclaration())
    return Decl;
  return DISubprogram::get(
      SP->getContext(), SP->getScope(), SP->getName(), SP->getLinkageName(),
      SP->getFile(), SP->getLine(), SP->getType(), SP->getScopeLine(),
      SP->getContainingType(), SP->getVirtualIndex(), SP->getThisAdjustment(),
      SP->getFlags(), SP->getSPFlags() & ~DISubprogram::SPFlagDefinition,
      /*Unit=*/nullptr, SP->getTemplateParams());
}

/// Declares `__rsb_entry.f` and `__rsb_tail.f` for each function with a
/// subprogram that calls may be retargeted to (RSBStuffCalls.cpp).
static void declareEntriesForDebugInfo(Module &M, const TargetMachine &TM) {
  SmallVector<Function *, 32> Callees;
  for (Function &F : M)
    if (F.getSubprogram() && !F.isIntrinsic() &&
        !isRuntimeFunction(F.getName()) && !F.getName().starts_with("__rsb"))
      Callees.push_back(&F);
  for (Function *F : Callees) {
    DISubprogram *Decl = declarationOf(F->getSubprogram());
    for (StringRef Prefix : {EntryPrefix, TailPrefix}) {
      std::string Name = (Prefix + TM.getSymbol(F)->getName()).str();
      if (M.getNamedValue(Name))
        continue;
      Function *Entry =
          Function::Create(F->getFunctionType(), GlobalValue::ExternalLinkage,
                           F->getAddressSpace(), Name, &M);
      Entry->setCallingConv(F->getCallingConv());
      Entry->setSubprogram(Decl);
    }
  }
}

/// The large code model makes every call indirect (`movabsq $f@GOT, %rax;
/// callq *(%rbx,%rax)`): a call is counted only where the run-time mark
/// check (RSBStuffIndirectCalls.cpp) finds an accounting entry, and only
/// executables have that check; every other call is followed by a reset.
/// Safe, but the user should hear of the cost once.
static void warnAboutIndirectCalls(Module &M, const TargetMachine &TM) {
  if (TM.getCodeModel() != CodeModel::Large)
    return;
  M.getContext().diagnose(DiagnosticInfoGeneric(
      "x86-rsb-stuff: -mcmodel=large makes every call indirect: a call is "
      "counted only when a run-time check finds its callee's accounting "
      "entry (executables only), any other is followed by a credit reset "
      "(safe, but slower)",
      DS_Warning));
}

namespace {

class RSBStuffPrepare : public ModulePass {
public:
  static char ID;
  explicit RSBStuffPrepare(const TargetMachine *TM = nullptr)
      : ModulePass(ID), TM(TM) {}
  StringRef getPassName() const override { return "rsb-stuff IR preparation"; }
  bool runOnModule(Module &M) override {
    bool Changed = removeLinkGuard(M);
    ModuleSettings Settings = settingsFor(M);
    if (!TM || !Settings.Enabled)
      return Changed;
    markOptOuts(M);
    if (kernel::enabled())
      return true;
    warnAboutIndirectCalls(M, *TM);
    markRegisterArgumentCallees(M);
    renameInstrumentedGroups(M, *TM);
    if (Settings.LinkTime)
      useRecordedDepthTable(M);
    addCapRecords(M, *TM);
    if (!M.debug_compile_units().empty())
      declareEntriesForDebugInfo(M, *TM);
    return true;
  }

private:
  const TargetMachine *TM;
};

} // namespace

char RSBStuffPrepare::ID = 0;

ModulePass *rsbstuff::createPreparePass(const TargetMachine &TM) {
  return new RSBStuffPrepare(&TM);
}
