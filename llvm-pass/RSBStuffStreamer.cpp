//===- RSBStuffStreamer.cpp - Emit accounting prefixes before entries -----===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// An MCTargetStreamer for x86-64 ELF that emits a function's accounting
// prefix from its emitLabel() hook. MCStreamer::emitLabel() calls the target
// streamer's hook before the asm streamer prints the label and before the
// object streamer places it, so whatever the hook emits lands in front of the
// entry. That order is pinned by test/CodeGen/prefix-order.ll.
//
// Layout for `f`, in the alignment padding the plain build has in front of
// f (the pass drops the AsmPrinter's own alignment of f):
//
//   .p2align 4 (5, 6, ...)   once per section, before the anchor label
//   int3 x K                 filler: never executed, traps stray jumps; K
//                            is an expression of the distance from the
//                            anchor, which the assembler evaluates after
//                            relaxation, so that the prefix ends at f's
//                            alignment A; where an indirect call may reach
//                            f, also off the multiples of 64 (A bytes past
//                            a 2A boundary for A >= 64, or alone in its
//                            section), so that one of f's bits 4-9 is set
//                            and f never starts a page: see
//                            mayBeMarkedTarget
// __rsb_tail.f:             <- tail calls from other objects (FUNC, size T)
//   [endbr64] jmp f          T bytes, skipping the accounting
// __rsb_entry.f:            <- direct calls land here (FUNC, size N)
//   sarq $5, %fs:ctr@tpoff  N bytes: the accounting, ends exactly at f
// f:
//
// An explicit alignment of f (aligned(N), -falign-functions) is still
// emitted by the AsmPrinter before the filler, whose count takes it into
// account.
//
// The tail alias has an address of its own, never f's: symbolizers (dladdr,
// backtrace_symbols, gdb) name an address by one of the symbols there, and
// must name f as the plain build does. Where stub and accounting together
// would pass 16 bytes (32 in statistics mode; IBT, the forms that save %r11)
// the stub goes out of line, like the entries of functions with data before
// their start.
//
// The X86 target's own streamers only serve COFF (.cv_fpo, SEH); for ELF the
// object target streamer is null and the asm one is unused, so replacing them
// for ELF loses nothing. Other formats keep the original asm target streamer
// (through a copy of the Target made before the registration).
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCExpr.h"
#include "llvm/MC/MCFixup.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSectionELF.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCSymbolELF.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormattedStream.h"

#include <memory>
#include <mutex>
#include <optional>

using namespace llvm;
using namespace rsbstuff;

namespace {

/// Pending requests, keyed by MCContext: parallel code generation (ThinLTO
/// backends) runs one MCContext per thread.
struct Registry {
  std::mutex Lock;
  DenseMap<MCContext *, PrefixRequest> Pending;
};

Registry &registry() {
  static Registry R;
  return R;
}

std::optional<PrefixRequest> takeRequest(MCContext &Ctx, MCSymbol *Label) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  auto It = R.Pending.find(&Ctx);
  if (It == R.Pending.end() || It->second.Function != Label)
    return std::nullopt;
  PrefixRequest Request = It->second;
  R.Pending.erase(It);
  return Request;
}

class PrefixStreamer : public MCTargetStreamer {
public:
  explicit PrefixStreamer(MCStreamer &S) : MCTargetStreamer(S) {}

  ~PrefixStreamer() override { dropPendingRequest(getContext()); }

  void emitLabel(MCSymbol *Label) override {
    if (std::optional<PrefixRequest> Request = takeRequest(getContext(), Label))
      emit(*Request);
  }

private:
  struct Encoder {
    std::unique_ptr<MCInstrInfo> MII;
    std::unique_ptr<MCCodeEmitter> Emitter;
  };
  std::optional<Encoder> Enc;

  Encoder &encoder();
  void emitEntrySymbol(MCSymbol *Sym, const PrefixRequest &Request);
  void emitAccounting(MCSymbol *Entry, ArrayRef<MCInst> Seq,
                      const PrefixRequest &Request, bool WithTailStub = false);
  void emitTailStub(const PrefixRequest &Request, unsigned SeqSize);
  void emitTailStubOutOfLine(const PrefixRequest &Request, MCSymbol *Body);
  void emitLineRow(const PrefixRequest &Request);
  DenseMap<MCSection *, std::pair<MCSymbol *, Align>> Anchors;
  MCSymbol *anchor(Align A, const MCSubtargetInfo &STI);
  void emitFillBefore(uint64_t Size, Align Modulus, uint64_t Residue,
                      std::optional<Align> Avoid, const MCSubtargetInfo &STI);
  void emitPrefix(const PrefixRequest &Request);
  void emitOutOfLine(MCSymbol *Sym, ArrayRef<MCInst> Seq,
                     const PrefixRequest &Request, StringRef SectionName);
  void emitCallThunk(const PrefixRequest &Request);
  void emitPaddingTemplate(const PrefixRequest &Request);
  void emitInitThunks(const PrefixRequest &Request);
  DenseSet<MCSymbol *> EmittedInitThunks;
  void emitElided(const PrefixRequest &Request);
  void emit(const PrefixRequest &Request);
};

PrefixStreamer::Encoder &PrefixStreamer::encoder() {
  if (!Enc) {
    const Target &T = originalTarget();
    Enc.emplace();
    Enc->MII.reset(T.createMCInstrInfo());
    Enc->Emitter.reset(T.createMCCodeEmitter(*Enc->MII, getContext()));
  }
  return *Enc;
}

void PrefixStreamer::emitEntrySymbol(MCSymbol *Sym,
                                     const PrefixRequest &Request) {
  MCStreamer &S = getStreamer();
  S.emitSymbolAttribute(Sym, MCSA_ELF_TypeFunction);
  if (Request.Binding != MCSA_Invalid)
    S.emitSymbolAttribute(Sym, Request.Binding);
  if (Request.Visibility != MCSA_Invalid)
    S.emitSymbolAttribute(Sym, Request.Visibility);
}

/// The entry label and the accounting sequence, with its own FDE: the entry
/// lies outside f's, and a signal or profiler sample may stop on the
/// accounting instruction. The frame is f's entry frame (CFA = rsp + 8),
/// which is the default rule. The tail stub in front of the entry, if any,
/// shares the FDE.
void PrefixStreamer::emitAccounting(MCSymbol *Entry, ArrayRef<MCInst> Seq,
                                    const PrefixRequest &Request,
                                    bool WithTailStub) {
  MCStreamer &S = getStreamer();
  const X86Names &Names =
      X86Names::get(*encoder().MII, *getContext().getRegisterInfo());
  if (WithTailStub) {
    if (Request.EmitCFI)
      S.emitCFIStartProc(/*IsSimple=*/false);
    emitTailStub(Request, encodedSize(*encoder().Emitter, Seq, *Request.STI));
  }
  emitEntrySymbol(Entry, Request);
  S.emitLabel(Entry);
  if (Request.EmitCFI && !WithTailStub)
    S.emitCFIStartProc(/*IsSimple=*/false);
  for (const MCInst &I : Seq) {
    S.emitInstruction(I, *Request.STI);
    if (!Request.EmitCFI)
      continue;
    // %r11 saved around the counter access moves the CFA.
    if (I.getOpcode() == Names.opcode("PUSH64r"))
      S.emitCFIAdjustCfaOffset(8);
    else if (I.getOpcode() == Names.opcode("POP64r"))
      S.emitCFIAdjustCfaOffset(-8);
  }
  if (Request.EmitCFI)
    S.emitCFIEndProc();
}

/// The prefix's line-table row: the function's own line, so that a
/// symbolizer does not put the entry on the previous function's last line.
/// Not a statement: a debugger must not place a line's breakpoint there.
/// Before the module's first function the compile unit's line table has no
/// root file yet; that prefix lies outside the unit's address range anyway.
void PrefixStreamer::emitLineRow(const PrefixRequest &Request) {
  const DISubprogram *SP = Request.Subprogram;
  MCContext &Ctx = getContext();
  if (!SP || !SP->getUnit() ||
      SP->getUnit()->getEmissionKind() == DICompileUnit::NoDebug ||
      Ctx.getMCDwarfLineTable(Ctx.getDwarfCompileUnitID())
          .getRootFile()
          .Name.empty())
    return;
  const DIFile *File = SP->getFile();
  std::optional<MD5::MD5Result> Checksum;
  if (Ctx.getDwarfVersion() >= 5 && File->getChecksum() &&
      File->getChecksum()->Kind == DIFile::CSK_MD5) {
    std::string Bytes = fromHex(File->getChecksum()->Value);
    MD5::MD5Result Result;
    std::copy(Bytes.begin(), Bytes.end(), Result.data());
    Checksum = Result;
  }
  Expected<unsigned> FileNo = getStreamer().tryEmitDwarfFileDirective(
      0, File->getDirectory(), File->getFilename(), Checksum, File->getSource(),
      Ctx.getDwarfCompileUnitID());
  if (!FileNo) {
    consumeError(FileNo.takeError()); // No row rather than a wrong one.
    return;
  }
  getStreamer().emitDwarfLocDirective(*FileNo, SP->getLine(), 0, 0, 0, 0,
                                      File->getFilename());
}

/// The bytes of `__rsb_tail.f: [endbr64] jmp f` (the ENDBR64 because other
/// objects reach it through their PLT, an indirect branch).
static unsigned tailStubSize(const PrefixRequest &Request) {
  constexpr unsigned EndbrSize = 4, ShortJmpSize = 2;
  return (Request.Endbr ? EndbrSize : 0) + ShortJmpSize;
}

/// The tail stub right before the accounting sequence of SeqSize bytes,
/// which it jumps over. The jump is spelled as bytes: its displacement is
/// fixed by the layout, and an instruction could be relaxed or padded
/// (-mbranches-within-32B-boundaries) and move f.
void PrefixStreamer::emitTailStub(const PrefixRequest &Request,
                                  unsigned SeqSize) {
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  emitEntrySymbol(Request.TailAlias, Request);
  S.emitLabel(Request.TailAlias);
  if (Request.Endbr) {
    MCInst Endbr;
    Endbr.setOpcode(Names.opcode("ENDBR64"));
    S.emitInstruction(Endbr, *Request.STI);
  }
  constexpr uint8_t ShortJmp = 0xeb;
  S.AddComment("jmp " + Request.Function->getName().str());
  S.emitIntValue(ShortJmp, 1);
  S.emitIntValue(SeqSize, 1);
  S.emitELFSize(Request.TailAlias,
                MCConstantExpr::create(tailStubSize(Request), Ctx));
}

/// A label at a multiple of A from the start of the current section, at or
/// before the current position: the first call in a section aligns there
/// (once, like the AsmPrinter's own alignment of a function would).
MCSymbol *PrefixStreamer::anchor(Align A, const MCSubtargetInfo &STI) {
  MCStreamer &S = getStreamer();
  std::pair<MCSymbol *, Align> &Anchor = Anchors[S.getCurrentSectionOnly()];
  if (!Anchor.first || Anchor.second < A) {
    S.emitCodeAlignment(A, &STI);
    Anchor = {getContext().createTempSymbol("rsb_anchor"), A};
    S.emitLabel(Anchor.first);
  }
  return Anchor.first;
}

/// int3s up to the point from which Size more bytes end at Residue (mod
/// Modulus): the prefix takes the place of the alignment padding in front
/// of f instead of following it. The count depends on where the fill lands,
/// which only the assembler's layout knows (after relaxation), so it is an
/// expression: (Residue - Size - (here - anchor)) mod Modulus, kept
/// non-negative because `&` on a negative value would depend on its width.
/// With Avoid (a multiple of Modulus, Residue 0), Modulus bytes more where
/// that end E would be a multiple of Avoid: ((E mod Avoid) + Avoid - 1) /
/// Avoid is 0 there and 1 elsewhere, without a comparison (MC's `==` yields
/// 1 and GNU as's -1).
void PrefixStreamer::emitFillBefore(uint64_t Size, Align Modulus,
                                    uint64_t Residue,
                                    std::optional<Align> Avoid,
                                    const MCSubtargetInfo &STI) {
  if (Modulus == Align(1) && !Avoid)
    return; // f unaligned (optimised for size): the prefix follows the code.
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  MCSymbol *Anchor = anchor(Avoid ? std::max(*Avoid, Modulus) : Modulus, STI);
  MCSymbol *Here = Ctx.createTempSymbol();
  S.emitLabel(Here);
  auto Const = [&Ctx](uint64_t V) { return MCConstantExpr::create(V, Ctx); };
  uint64_t M = Modulus.value();
  uint64_t Wanted = (Residue + M - Size % M) % M;
  const MCExpr *Distance =
      MCBinaryExpr::createSub(MCSymbolRefExpr::create(Here, Ctx),
                              MCSymbolRefExpr::create(Anchor, Ctx), Ctx);
  const MCExpr *Offset = MCBinaryExpr::createAnd(Distance, Const(M - 1), Ctx);
  const MCExpr *Count = MCBinaryExpr::createAnd(
      MCBinaryExpr::createSub(Const(Wanted + M), Offset, Ctx), Const(M - 1),
      Ctx);
  if (Avoid) {
    uint64_t V = Avoid->value();
    const MCExpr *End = MCBinaryExpr::createAnd(
        MCBinaryExpr::createAdd(MCBinaryExpr::createAdd(Distance, Count, Ctx),
                                Const(Size), Ctx),
        Const(V - 1), Ctx);
    const MCExpr *Elsewhere = MCBinaryExpr::createAShr(
        MCBinaryExpr::createAdd(End, Const(V - 1), Ctx), Const(Log2(*Avoid)),
        Ctx);
    Count = MCBinaryExpr::createAdd(
        Count,
        MCBinaryExpr::createSub(
            Const(M), MCBinaryExpr::createMul(Elsewhere, Const(M), Ctx), Ctx),
        Ctx);
  }
  constexpr uint8_t Int3 = 0xcc;
  S.emitFill(*Count, Int3);
}

void PrefixStreamer::emitPrefix(const PrefixRequest &Request) {
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  const MCSubtargetInfo &STI = *Request.STI;
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());

  SmallVector<MCInst, 8> Seq = accountingSequence(Ctx, Request, Names);
  unsigned SeqSize = encodedSize(*encoder().Emitter, Seq, STI);

  // The tail stub goes in front where it fits in PrefixSize bytes (rounded
  // up to the alignment) with the accounting.
  uint64_t Total = alignTo(std::max<uint64_t>(Request.PrefixSize, SeqSize),
                           Request.FunctionAlign);
  unsigned StubSize = Request.TailAlias ? tailStubSize(Request) : 0;
  bool StubInFiller = Request.TailAlias && Total - SeqSize >= StubSize;
  MCSymbol *Body = nullptr;
  if (Request.TailAlias && !StubInFiller) {
    Body = Ctx.createTempSymbol("rsb_body");
    emitTailStubOutOfLine(Request, Body);
  }
  // f at 0 (mod A). Where it must not start a page, one of its bits 4-9
  // must be set: at 16 or 32 bytes, off the multiples of 64 (from a 64-byte
  // aligned anchor; 16 bytes more one time in four); aligned further, or
  // alone in its section (whose alignment the anchor's becomes: 32 costs
  // the linker's padding less than 64), A bytes past a 2A boundary.
  Align A = Request.FunctionAlign;
  const Align MarkedAvoid(64);
  bool Avoid = Request.OffPageStart && A < MarkedAvoid && !Request.OwnSection;
  bool Wide = Request.OffPageStart && !Avoid;
  Align Modulus = Wide ? Align(2 * A.value()) : A;
  uint64_t Residue = Wide ? A.value() : 0;
  emitFillBefore(SeqSize + (StubInFiller ? StubSize : 0), Modulus, Residue,
                 Avoid ? std::optional<Align>(MarkedAvoid) : std::nullopt, STI);
  emitLineRow(Request);
  emitAccounting(Request.Entry, Seq, Request, StubInFiller);
  S.emitELFSize(Request.Entry,
                MCBinaryExpr::createSub(
                    MCSymbolRefExpr::create(Request.Function, Ctx),
                    MCSymbolRefExpr::create(Request.Entry, Ctx), Ctx));
  if (Body)
    S.emitLabel(Body);
}

/// `jmp Target`. Out-of-line code jumps to f through a local label placed
/// at f, never to f's symbol: in a shared object that would go through the
/// PLT to whatever definition interposes f, which may return with a plain
/// `ret` after the call was counted.
MCInst jumpTo(MCContext &Ctx, MCSymbol *Target, const X86Names &Names) {
  MCInst Jmp;
  Jmp.setOpcode(Names.opcode("JMP_4"));
  Jmp.addOperand(MCOperand::createExpr(MCSymbolRefExpr::create(Target, Ctx)));
  return Jmp;
}

/// Emits Sym: Seq (with its FDE) in section SectionName, in the COMDAT group
/// of the function being emitted, if any, so they go together.
void PrefixStreamer::emitOutOfLine(MCSymbol *Sym, ArrayRef<MCInst> Seq,
                                   const PrefixRequest &Request,
                                   StringRef SectionName) {
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  const auto *FnSection =
      static_cast<const MCSectionELF *>(S.getCurrentSectionOnly());
  const MCSymbolELF *Group = FnSection->getGroup();
  MCSectionELF *Thunks = Ctx.getELFSection(
      SectionName, ELF::SHT_PROGBITS, ELF::SHF_ALLOC | ELF::SHF_EXECINSTR, 0,
      Group ? Group->getName() : "", Group != nullptr);
  S.pushSection();
  S.switchSection(Thunks);
  S.emitCodeAlignment(Align(16), Request.STI);
  emitLineRow(Request);
  emitAccounting(Sym, Seq, Request);
  MCSymbol *End = Ctx.createTempSymbol();
  S.emitLabel(End);
  S.emitELFSize(Sym, MCBinaryExpr::createSub(MCSymbolRefExpr::create(End, Ctx),
                                             MCSymbolRefExpr::create(Sym, Ctx),
                                             Ctx));
  S.popSection();
}

/// The kernel's layout, emulated for comparison: `__rsb_entry.f: sarq;
/// jmp f` out of line, and nothing in front of f.
void PrefixStreamer::emitCallThunk(const PrefixRequest &Request) {
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  SmallVector<MCInst, 8> Seq = accountingSequence(Ctx, Request, Names);
  MCSymbol *Body = Ctx.createTempSymbol("rsb_body");
  Seq.push_back(jumpTo(Ctx, Body, Names));
  emitOutOfLine(Request.Entry, Seq, Request, ".text.rsb_call_thunks");
  if (Request.TailAlias)
    emitTailStubOutOfLine(Request, Body);
  getStreamer().emitLabel(Body);
}

/// `__rsb_tail.f: [endbr64] jmp f` out of line, where the prefix has no
/// room for it.
void PrefixStreamer::emitTailStubOutOfLine(const PrefixRequest &Request,
                                           MCSymbol *Body) {
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  SmallVector<MCInst, 2> Seq;
  if (Request.Endbr) {
    MCInst Endbr;
    Endbr.setOpcode(Names.opcode("ENDBR64"));
    Seq.push_back(Endbr);
  }
  Seq.push_back(jumpTo(Ctx, Body, Names));
  emitOutOfLine(Request.TailAlias, Seq, Request, ".text.rsb_call_thunks");
}

/// An elided function has no accounting, so nothing in front of it: its
/// entry symbol is f itself, for callers in other objects, and its tail
/// alias accounts the plain `ret` that ends the tail caller's counted call:
/// `__rsb_tail.f: call __rsb_tail_account; jmp f`, out of line.
void PrefixStreamer::emitElided(const PrefixRequest &Request) {
  if (!Request.TailAlias)
    return; // Local: only reached from this object, which knows.
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  const MCExpr *FnRef = MCSymbolRefExpr::create(Request.Function, Ctx);
  emitEntrySymbol(Request.Entry, Request);
  S.emitAssignment(Request.Entry, FnRef);

  MCInst Call;
  Call.setOpcode(Names.opcode("CALL64pcrel32"));
  Call.addOperand(
      MCOperand::createExpr(MCSymbolRefExpr::create(Request.TailAccount, Ctx)));
  MCSymbol *Body = Ctx.createTempSymbol("rsb_body");
  emitOutOfLine(Request.TailAlias, {Call, jumpTo(Ctx, Body, Names)}, Request,
                ".text.rsb_call_thunks");
  S.emitLabel(Body);
}

/// The kernel's layout: the AsmPrinter has emitted the -fpatchable-function-
/// entry NOPs, shortened by the pass to leave room for the template, so the
/// template fills the padding's last bytes exactly where the kernel's
/// boot-time patcher would have written it. No alignment, no filler, no tail
/// alias: the kernel has no fallbacks.
///
///   __pfx_f = f - N  (FUNC, size N: objtool lets __pfx_ code fall through)
///   nop x (N - T)    emitted by the AsmPrinter
/// __rsb_entry.f:     (local label, for disassembly and backtraces)
///   sarq $5, %gs:pcpu_hot+X86_call_depth(%rip)   T bytes in all
///   [incq %gs:__x86_call_count(%rip)]
/// f:
void PrefixStreamer::emitPaddingTemplate(const PrefixRequest &Request) {
  MCStreamer &S = getStreamer();
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  const MCExpr *Padding = MCConstantExpr::create(Request.PrefixSize, Ctx);
  emitEntrySymbol(Request.PaddingSymbol, Request);
  S.emitAssignment(
      Request.PaddingSymbol,
      MCBinaryExpr::createSub(MCSymbolRefExpr::create(Request.Function, Ctx),
                              Padding, Ctx));
  S.emitELFSize(Request.PaddingSymbol, Padding);
  S.emitLabel(Request.Entry);
  if (Request.EmitCFI)
    S.emitCFIStartProc(/*IsSimple=*/false);
  for (const MCInst &I : accountingSequence(Ctx, Request, Names))
    S.emitInstruction(I, *Request.STI);
  if (Request.EmitCFI)
    S.emitCFIEndProc();
}

/// `thunk: <accounting>; jmp callee` for calls from .init.text, in a section
/// of their own (the kernel links .init.text.* with .init.text and frees it
/// after boot) so that they stay out of the padding being emitted. A thunk and
/// not a call into the callee's padding: objtool takes a call to code that
/// falls through (a __pfx_ symbol) for a call that never returns, and
/// refuses calls to plain labels.
void PrefixStreamer::emitInitThunks(const PrefixRequest &Request) {
  MCContext &Ctx = getContext();
  const X86Names &Names = X86Names::get(*encoder().MII, *Ctx.getRegisterInfo());
  for (auto [Thunk, Callee] : Request.InitThunks) {
    if (!EmittedInitThunks.insert(Thunk).second)
      continue;
    SmallVector<MCInst, 8> Seq = accountingSequence(Ctx, Request, Names);
    MCInst Jmp;
    Jmp.setOpcode(Names.opcode("JMP_4"));
    Jmp.addOperand(MCOperand::createExpr(MCSymbolRefExpr::create(Callee, Ctx)));
    Seq.push_back(Jmp);
    PrefixRequest Local = Request;
    Local.Binding = MCSA_Invalid;
    Local.Visibility = MCSA_Invalid;
    emitOutOfLine(Thunk, Seq, Local, ".init.text.rsb_thunks");
  }
}

void PrefixStreamer::emit(const PrefixRequest &Request) {
  if (Request.Elided) {
    emitElided(Request);
    return;
  }
  switch (Request.Placement) {
  case EntryPlacement::Prefix:
    emitPrefix(Request);
    break;
  case EntryPlacement::OutOfLine:
    emitCallThunk(Request);
    break;
  case EntryPlacement::Padding:
    if (!Request.ThunksOnly)
      emitPaddingTemplate(Request);
    emitInitThunks(Request);
    return;
  }
  if (Request.BodyMarker) {
    getStreamer().emitSymbolAttribute(Request.BodyMarker,
                                      MCSA_ELF_TypeFunction);
    getStreamer().emitLabel(Request.BodyMarker);
  }
}

MCTargetStreamer *createAsmStreamer(MCStreamer &S, formatted_raw_ostream &OS,
                                    MCInstPrinter *InstPrint) {
  if (S.getContext().getTargetTriple().isOSBinFormatELF())
    return new PrefixStreamer(S);
  return originalTarget().createAsmTargetStreamer(S, OS, InstPrint);
}

MCTargetStreamer *createObjectStreamer(MCStreamer &S, const MCSubtargetInfo &) {
  if (S.getContext().getTargetTriple().isOSBinFormatELF())
    return new PrefixStreamer(S);
  // The original constructor is private to Target. X86 only has an object
  // target streamer for 32-bit Windows FPO data, which the AsmPrinter skips
  // when there is none; the pass refuses non-ELF triples anyway.
  return nullptr;
}

MCTargetStreamer *createNullStreamer(MCStreamer &S) {
  if (S.getContext().getTargetTriple().isOSBinFormatELF())
    return new PrefixStreamer(S);
  return originalTarget().createNullTargetStreamer(S);
}

} // namespace

Target &rsbstuff::originalTarget() {
  static Target Original;
  return Original;
}

void rsbstuff::requestPrefix(MCContext &Ctx, const PrefixRequest &Request) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Pending[&Ctx] = Request;
}

void rsbstuff::dropPendingRequest(MCContext &Ctx) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Pending.erase(&Ctx);
}

void rsbstuff::installPrefixStreamer(Target &T) {
  static std::once_flag Once;
  std::call_once(Once, [&T] {
    originalTarget() = T;
    TargetRegistry::RegisterAsmTargetStreamer(T, createAsmStreamer);
    TargetRegistry::RegisterObjectTargetStreamer(T, createObjectStreamer);
    TargetRegistry::RegisterNullTargetStreamer(T, createNullStreamer);
  });
}
