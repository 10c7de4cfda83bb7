//===- RSBStuffAccounting.cpp - The accounting instructions ---------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The instructions an accounting entry executes, as MCInsts for the prefix
// streamer to emit: `sarq $5` on the counter in one of its forms (local-exec
// TLS in executables, initial-exec through the GOT and %r11 in shared
// objects, the kernel's per-CPU %gs-relative word), the statistics `incq`,
// and what the entry needs around them (ENDBR64 under IBT, %r11 saved where
// the function's convention needs it).
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>

using namespace llvm;
using namespace rsbstuff;

namespace {

/// A TLS reference `Sym@Spec`; the specifier is looked up by its assembler
/// name because the X86 specifier enum is private to LLVM.
const MCExpr *tlsRef(MCContext &Ctx, MCSymbol *Sym, StringRef Spec) {
  std::optional<uint32_t> Kind = Ctx.getAsmInfo()->getSpecifierForName(Spec);
  if (!Kind)
    report_fatal_error(Twine("rsb-stuff: X86 has no @") + Spec + " specifier");
  return MCSymbolRefExpr::create(Sym, *Kind, Ctx);
}

/// X86 memory operand: base, scale, index, displacement, segment.
void addMem(MCInst &I, MCRegister Base, const MCExpr *Disp, MCRegister Seg) {
  I.addOperand(MCOperand::createReg(Base));
  I.addOperand(MCOperand::createImm(1));
  I.addOperand(MCOperand::createReg(MCRegister()));
  I.addOperand(Disp ? MCOperand::createExpr(Disp) : MCOperand::createImm(0));
  I.addOperand(MCOperand::createReg(Seg));
}

/// `Sym+Offset`, as the kernel writes `pcpu_hot + X86_call_depth`.
const MCExpr *directRef(MCContext &Ctx, MCSymbol *Sym, int64_t Offset) {
  const MCExpr *Ref = MCSymbolRefExpr::create(Sym, Ctx);
  if (Offset == 0)
    return Ref;
  return MCBinaryExpr::createAdd(Ref, MCConstantExpr::create(Offset, Ctx), Ctx);
}

MCRegister segmentRegister(Segment Seg, const X86Names &Names) {
  switch (Seg) {
  case Segment::None:
    return MCRegister();
  case Segment::FS:
    return Names.reg("FS");
  case Segment::GS:
    return Names.reg("GS");
  }
  llvm_unreachable("covered switch");
}

MCInst registerInst(const X86Names &Names, StringRef Opcode, MCRegister Reg) {
  MCInst I;
  I.setOpcode(Names.opcode(Opcode));
  I.addOperand(MCOperand::createReg(Reg));
  return I;
}

/// The accounting instructions: `sarq $5` on the counter, and in statistics
/// mode `incq` on the first word of the statistics block; after an ENDBR64
/// where the entry may be reached by an indirect branch (IBT). Or, in code
/// optimised for size, a call of the runtime function that does the `sarq`.
} // namespace

SmallVector<MCInst, 8>
rsbstuff::accountingSequence(MCContext &Ctx, const PrefixRequest &Request,
                             const X86Names &Names) {
  MCRegister FS = Names.reg("FS");
  MCRegister Scratch = Names.reg("R11");
  SmallVector<MCInst, 8> Seq;
  if (Request.Endbr) {
    MCInst Endbr;
    Endbr.setOpcode(Names.opcode("ENDBR64"));
    Seq.push_back(Endbr);
  }
  if (Request.CountCall) {
    MCInst Call;
    Call.setOpcode(Names.opcode("CALL64pcrel32"));
    Call.addOperand(
        MCOperand::createExpr(MCSymbolRefExpr::create(Request.CountCall, Ctx)));
    Seq.push_back(Call);
    return Seq;
  }
  // %r11 is scratch at a function entry in the conventions of C (PLT stubs
  // clobber it too), but not where it carries an argument (preserve_none)
  // or must be preserved (no_caller_saved_registers): there it is saved on
  // the stack, below the return address, which no caller's red zone can
  // hold across a call.
  bool SaveScratch =
      Request.KeepR11 && Request.Form == CounterForm::InitialExec;
  if (SaveScratch)
    Seq.push_back(registerInst(Names, "PUSH64r", Scratch));

  // Loads the symbol's TP offset into r11 for the initial-exec form.
  auto LoadOffset = [&](MCSymbol *Sym) {
    MCInst Mov;
    Mov.setOpcode(Names.opcode("MOV64rm"));
    Mov.addOperand(MCOperand::createReg(Scratch));
    addMem(Mov, Names.reg("RIP"), tlsRef(Ctx, Sym, "gottpoff"), MCRegister());
    Seq.push_back(Mov);
  };
  auto AddOperand = [&](MCInst &I, MCSymbol *Sym) {
    switch (Request.Form) {
    case CounterForm::InitialExec:
      LoadOffset(Sym);
      addMem(I, Scratch, nullptr, FS);
      break;
    case CounterForm::LocalExec:
      addMem(I, MCRegister(), tlsRef(Ctx, Sym, "tpoff"), FS);
      break;
    case CounterForm::Direct:
      addMem(I, Request.RIPRelative ? Names.reg("RIP") : MCRegister(),
             directRef(Ctx, Sym,
                       Sym == Request.Counter ? Request.CounterOffset : 0),
             segmentRegister(Request.Seg, Names));
      break;
    }
  };

  // In user space the sarq comes last, right before f: the mark that
  // indirect call sites check (RSBStuffIndirectCalls.cpp). The kernel's
  // template keeps Linux's order.
  bool IncFirst = Request.Form != CounterForm::Direct;
  auto AddInc = [&] {
    MCInst Inc;
    Inc.setOpcode(Names.opcode("INC64m"));
    AddOperand(Inc, Request.StatsBlock);
    Seq.push_back(Inc);
  };
  if (Request.StatsBlock && IncFirst)
    AddInc();
  MCInst Sar;
  Sar.setOpcode(Names.opcode("SAR64mi"));
  AddOperand(Sar, Request.Counter);
  Sar.addOperand(MCOperand::createImm(5));
  // Push the memory-operand instruction after its optional offset load.
  Seq.push_back(Sar);
  if (Request.StatsBlock && !IncFirst)
    AddInc();
  if (SaveScratch)
    Seq.push_back(registerInst(Names, "POP64r", Scratch));
  return Seq;
}

unsigned rsbstuff::encodedSize(MCCodeEmitter &Emitter, ArrayRef<MCInst> Insts,
                               const MCSubtargetInfo &STI) {
  SmallVector<char, 32> Bytes;
  SmallVector<MCFixup, 4> Fixups;
  for (const MCInst &I : Insts)
    Emitter.encodeInstruction(I, Bytes, Fixups, STI);
  return Bytes.size();
}

unsigned rsbstuff::accountingSize(MCContext &Ctx,
                                  const PrefixRequest &Request) {
  const Target &T = originalTarget();
  std::unique_ptr<MCInstrInfo> MII(T.createMCInstrInfo());
  std::unique_ptr<MCCodeEmitter> Emitter(T.createMCCodeEmitter(*MII, Ctx));
  const X86Names &Names = X86Names::get(*MII, *Ctx.getRegisterInfo());
  return encodedSize(*Emitter, accountingSequence(Ctx, Request, Names),
                     *Request.STI);
}
