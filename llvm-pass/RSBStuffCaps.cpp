//===- RSBStuffCaps.cpp - Credit caps after calls into the C library -----===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// A call the counter does not see may push and pop more return addresses
// than the RSB's spare entries, overwriting the oldest entries the credit
// stands for: so it is followed by a reset (RSBStuffCalls.cpp). A callee of
// known depth D overwrites at most D + 1 entries, and the 16 - (D + 1)
// newest survive: the credit only has to be capped to that many returns,
// which for D <= 3 leaves it whole (docs/design.md proves the rule).
//
// Depths come from utils/libc-depth's table of the C library this compiler
// runs on (RSBStuffDepthTable.cpp), and hold only where the program really
// calls that build of that library, bound at load time. So the cap is not an
// immediate: each called function gets a record
//
//   __rsb_cap.f = { mask, &f, "libc.so.6 <build-id>", capped mask,
//                   &__rsb_caps_check }
//
// in section rsb_caps, whose mask starts as the reset (RSB_DEPTH_INIT) and
// which the runtime sets to the capped mask at start-up once it has checked
// the library, the binding and where f resolved (runtime/rsb_caps.c). A
// depth that holds only once a flag of the library is set (malloc after its
// first call) adds the flag's address to the library string, which the
// runtime then also checks. After
// the call: `movq __rsb_cap.f(%rip), %r10; andq %r10, counter`. A counter
// `1...10...0` with a ones is a credit of ceil(a/5) - 1 returns; the `and`
// keeps at most the mask's leading ones, so it never adds credit.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffDepthTable.h"
#include "RSBStuffStatistics.h"
#include "X86RSBStuff.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/CodeGen/MachineFunction.h"
#include "llvm/CodeGen/MachineInstrBuilder.h"
#include "llvm/CodeGen/MachineMemOperand.h"
#include "llvm/CodeGen/TargetInstrInfo.h"
#include "llvm/CodeGen/TargetSubtargetInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <algorithm>

using namespace llvm;
using namespace rsbstuff;

/// Return Stack Buffer entries (Skylake), returns of a full credit, and the
/// counter's bits per call level (runtime/rsb_thunks.S).
static constexpr unsigned RSBEntries = 16, FullCredit = 12, DepthShift = 5;
/// RSB_DEPTH_INIT: the reset, the record's mask until the runtime vouches.
static constexpr uint64_t ResetMask = uint64_t(1) << 63;
/// Offset of `caps` in struct rsb_stats (runtime/include/rsb_stuff.h).
static constexpr int64_t StatsCapsOffset = 32;

/// Mask that caps the credit to the returns whose RSB entries survive a
/// call of depth Depth, or nothing if none would have to be given up.
static std::optional<uint64_t> capMask(unsigned Depth) {
  if (Depth + 1 >= RSBEntries)
    return std::nullopt;
  unsigned Surviving = RSBEntries - (Depth + 1);
  if (Surviving >= FullCredit)
    return ~uint64_t(0);
  return ~uint64_t(0) << (64 - DepthShift * (Surviving + 1));
}

std::string rsbstuff::capRecordName(StringRef Callee) {
  return ("__rsb_cap." + Callee).str();
}

/// `"<library> <build-id>"`, shared by every record of that build, or
/// `"<library> <build-id> <once-flag in hex>"` for a depth that holds once
/// that flag is set (a runtime that predates once-flags sees another build).
static Constant *libraryId(Module &M, const LibraryDepth &Lib) {
  std::string Id = (Lib.Library + " " + Lib.BuildId).str();
  if (Lib.OnceFlag)
    Id += " " + utohexstr(Lib.OnceFlag, /*LowerCase=*/true);
  std::string Name = "__rsb_lib." + Id;
  std::replace(Name.begin(), Name.end(), ' ', '.');
  if (GlobalVariable *GV = M.getNamedGlobal(Name))
    return GV;
  Constant *Text = ConstantDataArray::getString(M.getContext(), Id);
  auto *GV = new GlobalVariable(M, Text->getType(), /*isConstant=*/true,
                                GlobalValue::LinkOnceODRLinkage, Text, Name);
  GV->setComdat(M.getOrInsertComdat(Name));
  GV->setVisibility(GlobalValue::HiddenVisibility);
  GV->setDSOLocal(true);
  return GV;
}

/// The runtime's check of the records. Only a constructor: without this
/// reference, nothing would pull it out of the runtime's archive.
static Function *startupCheck(Module &M) {
  FunctionCallee Check = M.getOrInsertFunction(
      "__rsb_caps_check", FunctionType::get(Type::getVoidTy(M.getContext()),
                                            /*isVarArg=*/false));
  auto *F = cast<Function>(Check.getCallee());
  F->setVisibility(GlobalValue::HiddenVisibility);
  F->setDSOLocal(true);
  return F;
}

static void addCapRecord(Module &M, Function &F, StringRef Symbol,
                         const LibraryDepth &Lib, uint64_t Capped) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx), *Ptr = PointerType::getUnqual(Ctx);
  auto *Ty = StructType::get(Ctx, {I64, Ptr, Ptr, I64, Ptr});
  Constant *Init = ConstantStruct::get(
      Ty, {ConstantInt::get(I64, ResetMask), &F, libraryId(M, Lib),
           ConstantInt::get(I64, Capped), startupCheck(M)});
  std::string Name = capRecordName(Symbol);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false,
                                GlobalValue::LinkOnceODRLinkage, Init, Name);
  GV->setComdat(M.getOrInsertComdat(Name));
  GV->setVisibility(GlobalValue::HiddenVisibility);
  GV->setDSOLocal(true);
  GV->setSection("rsb_caps");
  GV->setAlignment(Align(8));
}

/// Called directly, or the initial value of a function pointer (jansson's
/// `do_malloc = malloc`), which an indirect call may find it still holds.
static bool isCalledOrDefaultTarget(const Function &F) {
  return any_of(F.users(), [&](const User *U) {
    if (const auto *Call = dyn_cast<CallBase>(U))
      return Call->getCalledOperand() == &F;
    const auto *GV = dyn_cast<GlobalVariable>(U);
    return GV && GV->getInitializer() == &F;
  });
}

/// A second return (after a `longjmp`, or the vfork child's) comes with the
/// abandoned frames' calls behind it: the reset after the call covers them,
/// a cap, bounding only the callee's own pushes, does not.
static bool mayReturnTwice(const Function &F) {
  return F.hasFnAttribute(Attribute::ReturnsTwice) ||
         any_of(F.users(), [](const User *U) {
           const auto *Call = dyn_cast<CallBase>(U);
           return Call && Call->hasFnAttr(Attribute::ReturnsTwice);
         });
}

bool rsbstuff::addCapRecords(Module &M, const TargetMachine &TM) {
  if (depthTablePath().empty())
    return false;
  TargetLibraryInfoImpl TLII(M.getTargetTriple());
  TargetLibraryInfo TLI(TLII);
  SmallVector<std::pair<Function *, LibraryDepth>, 16> Callees;
  for (Function &F : M) {
    LibFunc Lib;
    StringRef Symbol = TM.getSymbol(&F)->getName();
    if (!F.isDeclaration() || isImplicitLibcall(Symbol) ||
        !isCalledOrDefaultTarget(F) || mayReturnTwice(F) ||
        (!TLI.getLibFunc(F, Lib) &&
         !isTableLibraryFunction(Symbol, M.getContext())) ||
        M.getNamedValue(capRecordName(Symbol)))
      continue;
    if (std::optional<LibraryDepth> D = libraryDepth(Symbol, M.getContext()))
      Callees.push_back({&F, *D});
  }
  bool Added = false;
  for (auto &[F, D] : Callees)
    if (std::optional<uint64_t> Mask = capMask(D.Depth)) {
      addCapRecord(M, *F, TM.getSymbol(F)->getName(), D, *Mask);
      Added = true;
    }
  return Added;
}

//===- After the call -----------------------------------------------------===//

/// Whether MI passes Reg on to its callee (an implicit use: an argument).
static bool readsImplicitly(const MachineInstr &MI, MCRegister Reg,
                            const TargetRegisterInfo &TRI) {
  return any_of(MI.implicit_operands(), [&](const MachineOperand &MO) {
    return MO.isReg() && MO.isUse() && TRI.regsOverlap(MO.getReg(), Reg);
  });
}

/// %r10, %r11 and the flags carry nothing into Call but its Target register
/// (an indirect call's, if any) and nothing out of it, and the caller keeps
/// nothing in them across it: code right before or after Call may use them.
/// (A function whose convention keeps them has saved them in its prologue
/// already, because of this call.)
bool X86RSBStuff::scratchFreeAcross(const MachineInstr &Call,
                                    MCRegister Target) const {
  const TargetRegisterInfo *TRI = MF->getSubtarget().getRegisterInfo();
  for (StringRef Name : {"R10", "R11", "EFLAGS"}) {
    MCRegister Reg = Names->reg(Name);
    if (!clobbersRegister(Call, Reg) || Call.definesRegister(Reg, TRI))
      return false;
    if (Reg != Target && readsImplicitly(Call, Reg, *TRI))
      return false;
  }
  return true;
}

const GlobalVariable *
X86RSBStuff::capRecord(const MachineOperand &Target) const {
  const auto *F =
      Target.isGlobal() ? dyn_cast<Function>(Target.getGlobal()) : nullptr;
  if (!F || !F->isDeclarationForLinker() || Target.getOffset() != 0)
    return nullptr;
  return F->getParent()->getNamedGlobal(
      capRecordName(MF->getTarget().getSymbol(F)->getName()));
}

bool X86RSBStuff::canCapAfter(const MachineInstr &Call) const {
  return scratchFreeAcross(Call);
}

/// Conventions that pass nothing in %r10 and %r11 at a return, and no
/// argument but `nest` (which the jump then reads): on x86-64, fastcc (what
/// LLVM gives internal functions) is the C convention (X86CallingConv.td
/// delegates it to CC_X86_64_C, X86RegisterInfo gives it the C saves).
static bool leavesScratchFree(CallingConv::ID CC) {
  return CC == CallingConv::C || CC == CallingConv::Fast;
}

/// %r10, %r11 and the flags are free right before TailCall: this function's
/// convention keeps none of them, and the jump passes none of them on but
/// its Target register (an indirect tail call's, if any).
bool X86RSBStuff::scratchFreeBeforeTail(const MachineInstr &TailCall,
                                        MCRegister Target) const {
  const TargetRegisterInfo *TRI = MF->getSubtarget().getRegisterInfo();
  const Function &Caller = MF->getFunction();
  if (!leavesScratchFree(Caller.getCallingConv()) ||
      Caller.hasFnAttribute("no_caller_saved_registers") || keepsR11AtExit())
    return false;
  for (StringRef Name : {"R10", "R11", "EFLAGS"}) {
    MCRegister Reg = Names->reg(Name);
    if (Reg != Target && readsImplicitly(TailCall, Reg, *TRI))
      return false;
  }
  return true;
}

/// Before an unconditional tail jump to a C function.
bool X86RSBStuff::canCapBefore(const MachineInstr &TailCall) const {
  if (!scratchFreeBeforeTail(TailCall))
    return false;
  const auto *F = dyn_cast<Function>(calleeOperand(TailCall).getGlobal());
  return F && F->getCallingConv() == CallingConv::C;
}

void X86RSBStuff::insertCap(MachineBasicBlock &MBB,
                            MachineBasicBlock::iterator Pos,
                            const GlobalVariable &Record) {
  DebugLoc DL = Pos != MBB.end() ? Pos->getDebugLoc() : DebugLoc();
  Register R10 = Names->reg("R10");
  BuildMI(MBB, Pos, DL, TII->get(Names->opcode("MOV64rm")), R10)
      .addReg(Names->reg("RIP"))
      .addImm(1)
      .addReg(0)
      .addGlobalAddress(&Record)
      .addReg(0);
  threadLocalOperand(MBB, Pos, DL, "AND64mr", namedSymbol(opts::CounterSym))
      .addReg(R10, RegState::Kill);
  if (Settings.Stats)
    threadLocalOperand(MBB, Pos, DL, "INC64m", namedSymbol(opts::StatsSym),
                       StatsCapsOffset);
  ++NumCaps;
}

bool X86RSBStuff::capOrResetAfter(MachineInstr &Call,
                                  MachineBasicBlock::iterator Pos) {
  const GlobalVariable *Record = capRecord(calleeOperand(Call));
  if (Record && canCapAfter(Call)) {
    insertCap(*Call.getParent(), Pos, *Record);
    return false;
  }
  insertReset(*Call.getParent(), Pos);
  return true;
}

//===- Indirect calls to a pointer's initial target -----------------------===//

/// Offset of the function's address in a cap record (addCapRecord).
static constexpr int64_t RecordFunctionOffset = 8;

/// The cap record of the C library function that Call's pointer starts out
/// as: the load of its target reads a global variable whose initialiser is
/// that function. Only a guess of which record to compare with: the check
/// at run time (insertDefaultTargetCheck) decides.
const GlobalVariable *
X86RSBStuff::defaultTargetRecord(const MachineInstr &Call) const {
  constexpr unsigned Displacement = 3;
  const MachineInstr *Load = targetLoad(Call);
  if (!Load)
    return nullptr;
  // A tail jump through memory may have lost its memory operand.
  const Value *Address = nullptr;
  if (Load->hasOneMemOperand())
    Address = (*Load->memoperands_begin())->getValue();
  else if (Load->getOperand(Displacement).isGlobal())
    Address = Load->getOperand(Displacement).getGlobal();
  const auto *GV = Address
                       ? dyn_cast<GlobalVariable>(getUnderlyingObject(Address))
                       : nullptr;
  if (!GV || !GV->hasInitializer())
    return nullptr;
  const auto *F = dyn_cast<Function>(GV->getInitializer());
  if (!F || !F->isDeclarationForLinker())
    return nullptr;
  return F->getParent()->getNamedGlobal(
      capRecordName(MF->getTarget().getSymbol(F)->getName()));
}

/// Ends MBB with `cmpq Record+8(%rip), %r11; jne Other`: MBB falls through
/// into Capped, the capped call, only when the target is the very address
/// the record holds, which is the one the runtime checked before it armed
/// the mask.
void X86RSBStuff::insertDefaultTargetCheck(MachineBasicBlock &MBB,
                                           const GlobalVariable &Record,
                                           MachineBasicBlock &Other,
                                           MachineBasicBlock &Capped,
                                           const DebugLoc &DL) {
  constexpr unsigned CondNotEqual = 5;
  BuildMI(MBB, MBB.end(), DL, TII->get(Names->opcode("CMP64rm")))
      .addReg(Names->reg("R11"))
      .addReg(Names->reg("RIP"))
      .addImm(1)
      .addReg(0)
      .addGlobalAddress(&Record, RecordFunctionOffset)
      .addReg(0);
  BuildMI(MBB, MBB.end(), DL, TII->get(Names->opcode("JCC_1")))
      .addMBB(&Other)
      .addImm(CondNotEqual);
  MBB.addSuccessor(&Other);
  MBB.addSuccessor(&Capped);
}
