//===- RSBStuffKernel.cpp - Kernel mode of the rsb-stuff pass -------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Linux (6.12, `retbleed=stuff`) tracks call depth itself: the compiler
// leaves FUNCTION_PADDING_BYTES of NOPs before every function
// (-fpatchable-function-entry=N,N), objtool lists every direct call outside
// .init.text in .call_sites, and at boot callthunks.c writes its accounting
// template into the last bytes of the callee's padding and retargets each
// listed call there. Returns already go through __x86_return_thunk
// (-mfunction-return=thunk-extern), which the kernel points at its own
// call_depth_return_thunk.
//
// Kernel mode fits into that mechanism instead of replacing it:
//
//  - the template is emitted by the compiler, byte for byte the kernel's
//    (`sarq $5, %gs:pcpu_hot+X86_call_depth(%rip)`, plus
//    `incq %gs:__x86_call_count(%rip)` with CALL_THUNKS_DEBUG), in the last
//    bytes of the padding, under a `__pfx_` symbol spanning the padding as
//    objtool's own do (objtool lets `__pfx_` code fall through into the
//    function). The patcher's "Already patched?" check accepts it and
//    retargets the listed calls without writing;
//  - calls the patcher never sees, those in .init.text of vmlinux, go
//    through `<template>; jmp f` thunks made by the compiler (by default to
//    any callee; -x86-rsb-stuff-kernel-init-calls=local keeps to callees of
//    the same file known to return through the thunk). No call is accounted
//    twice: objtool lists none of them;
//  - returns are the kernel's; only functions whose returns go through the
//    return thunk get a template, so no counted call ends in a plain `ret`.
//
// noinstr, entry and early boot code is left alone.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineOptimizationRemarkEmitter.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

#include <string>

using namespace llvm;
using namespace rsbstuff;

namespace {

cl::OptionCategory KernelCategory("rsb-stuff kernel options");

cl::opt<bool> KernelMode(
    "x86-rsb-stuff-kernel",
    cl::desc("Linux kernel mode: the kernel's per-CPU counter and template, "
             "in the last bytes of the -fpatchable-function-entry padding "
             "where its boot-time patcher expects them"),
    cl::init(false), cl::cat(KernelCategory));

cl::opt<int> CounterOffset(
    "x86-rsb-stuff-counter-offset",
    cl::desc("Kernel mode: byte offset of the call depth inside the counter "
             "symbol (X86_call_depth in include/generated/asm-offsets.h)"),
    cl::init(0), cl::cat(KernelCategory));

cl::opt<Segment> CounterSegment(
    "x86-rsb-stuff-counter-segment",
    cl::desc("Kernel mode: segment of the per-CPU counter"),
    cl::values(clEnumValN(Segment::GS, "gs", "%gs (x86-64 per-CPU data)"),
               clEnumValN(Segment::FS, "fs", "%fs"),
               clEnumValN(Segment::None, "none", "no segment override")),
    cl::init(Segment::GS), cl::cat(KernelCategory));

cl::opt<bool> CounterAbsolute(
    "x86-rsb-stuff-counter-absolute",
    cl::desc("Kernel mode: address the counter with an absolute 32-bit "
             "displacement instead of %rip-relative (the kernel's "
             "PER_CPU_VAR is %rip-relative on x86-64)"),
    cl::init(false), cl::cat(KernelCategory));

/// Which calls from .init.text the pass accounts.
enum class InitCallPolicy { None, Local, All };

cl::opt<InitCallPolicy> InitCalls(
    "x86-rsb-stuff-kernel-init-calls",
    cl::desc("Kernel mode: calls made from .init.text to account through a "
             "thunk (objtool lists none of them for vmlinux, so the "
             "boot-time patcher never does)"),
    cl::values(
        clEnumValN(InitCallPolicy::None, "none",
                   "none (modules: objtool lists their .init.text calls)"),
        clEnumValN(InitCallPolicy::Local, "local",
                   "calls to functions of the same file that return through "
                   "the return thunk"),
        clEnumValN(InitCallPolicy::All, "all",
                   "also calls to other files' functions, which the kernel's "
                   "rule has return through the return thunk (the rule the "
                   "boot-time patcher relies on, enforced by objtool)")),
    cl::init(InitCallPolicy::All), cl::cat(KernelCategory));

/// Marks a function whose padding holds the template: the pass shortens its
/// patchable-function-prefix, after which the attribute no longer tells
/// whether the template fits.
constexpr StringLiteral TemplateAttr = "rsb-stuff-kernel-template";

unsigned paddingOf(const Function &F) {
  return F.getFnAttributeAsParsedInteger("patchable-function-prefix", 0);
}

/// Sections of code that runs where the per-CPU counter must not be touched
/// (objtool's noinstr sections, and the code that runs before %gs is set).
bool isNoinstrSection(StringRef Section) {
  return Section == ".noinstr.text" || Section == ".entry.text" ||
         Section == ".cpuidle.text" || Section == ".head.text" ||
         Section.starts_with(".text..__x86.");
}

} // namespace

bool kernel::enabled() { return KernelMode; }

std::string kernel::configProblem(const TargetMachine &TM) {
  if (!KernelMode) {
    for (const cl::Option *Opt : std::initializer_list<const cl::Option *>{
             &CounterOffset, &CounterSegment, &CounterAbsolute, &InitCalls})
      if (Opt->getNumOccurrences())
        return ("x86-rsb-stuff: -" + Opt->ArgStr +
                " only applies with -x86-rsb-stuff-kernel")
            .str();
    return "";
  }
  (void)TM;
  if (!CounterOffset.getNumOccurrences())
    return "x86-rsb-stuff: -x86-rsb-stuff-kernel needs "
           "-x86-rsb-stuff-counter-offset=<X86_call_depth> (from the kernel "
           "build's include/generated/asm-offsets.h)";
  return "";
}

StringRef kernel::skipReason(const Function &F, const TargetMachine &TM,
                             unsigned TemplateSize) {
  if (TM.getCodeModel() != CodeModel::Kernel)
    return "not kernel code (no -mcmodel=kernel)";
  if (F.hasFnAttribute(TemplateAttr))
    return "";
  if (F.hasFnAttribute(OptOutAttr))
    return F.getFnAttribute(OptOutAttr).getValueAsString();
  if (F.hasFnAttribute(Attribute::Naked))
    return "naked function";
  if (F.getCallingConv() == CallingConv::X86_INTR)
    return "interrupt handler returns with iret";
  if (!F.hasFnAttribute(Attribute::FnRetThunkExtern))
    return "returns do not go through the kernel's return thunk "
           "(-mfunction-return=thunk-extern)";
  if (F.hasSection() && isNoinstrSection(F.getSection()))
    return "noinstr code must not be touched";
  if (F.hasPrefixData() || F.hasPrologueData() ||
      F.hasMetadata(LLVMContext::MD_func_sanitize) ||
      F.hasMetadata(LLVMContext::MD_kcfi_type))
    return "other data sits in the padding";
  if (paddingOf(F) < TemplateSize)
    return "its -fpatchable-function-entry padding cannot hold the template";
  return "";
}

unsigned kernel::claimPadding(Function &F, unsigned TemplateSize) {
  unsigned Padding = paddingOf(F);
  F.addFnAttr("patchable-function-prefix",
              std::to_string(Padding - TemplateSize));
  F.addFnAttr(TemplateAttr);
  return Padding;
}

bool kernel::accountsCallsFrom(const Function &F) {
  return InitCalls != InitCallPolicy::None && F.getSection() == ".init.text";
}

/// Assembly that the boot-time patcher never accounts (callthunks.c
/// skip_addr()): entry helpers and code that refills the RSB or switches
/// stacks itself.
static bool isSkippedByKernel(StringRef Name) {
  return StringSwitch<bool>(Name)
      .Cases({"error_entry", "paranoid_entry", "xen_error_entry",
              "__switch_to_asm", "ret_from_fork", "soft_restart_cpu",
              "__fentry__", "relocate_kernel"},
             true)
      .Default(false);
}

bool kernel::accountsInitCall(const Function &Callee, const TargetMachine &TM,
                              unsigned TemplateSize) {
  if (Callee.doesNotReturn() || Callee.isIntrinsic() ||
      isSkippedByKernel(Callee.getName()))
    return false;
  // A definition that certainly runs tells how it returns.
  if (!Callee.isDeclarationForLinker() && !Callee.isInterposable() &&
      !Callee.isWeakForLinker())
    return skipReason(Callee, TM, TemplateSize).empty();
  return InitCalls == InitCallPolicy::All && !Callee.hasExternalWeakLinkage();
}

void kernel::describeCounter(PrefixRequest &R) {
  R.Form = CounterForm::Direct;
  R.CounterOffset = CounterOffset;
  R.Seg = CounterSegment;
  R.RIPRelative = !CounterAbsolute;
}

//===----------------------------------------------------------------------===//
// The pass in kernel mode
//===----------------------------------------------------------------------===//

#define DEBUG_TYPE "x86-rsb-stuff"

/// The kernel's symbols unless the command line names others.
StringRef X86RSBStuff::counterName() const {
  if (kernel::enabled() && !opts::CounterSym.getNumOccurrences())
    return "pcpu_hot";
  return opts::CounterSym;
}

StringRef X86RSBStuff::statsBlockName() const {
  if (kernel::enabled() && !opts::StatsSym.getNumOccurrences())
    return "__x86_call_count";
  return opts::StatsSym;
}

PrefixRequest X86RSBStuff::kernelRequest() {
  const Function &F = MF->getFunction();
  PrefixRequest R;
  R.Function = MF->getTarget().getSymbol(&F);
  R.Entry = symbolFor(EntryPrefix, F);
  R.PaddingSymbol = symbolFor(kernel::PaddingPrefix, F);
  describeSymbols(R, F);
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
void X86RSBStuff::prepareKernelModule(const Module &M) {
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
