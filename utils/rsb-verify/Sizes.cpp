//===- Sizes.cpp - The bytes each kind of accounting sequence takes -------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// `rsb-verify --sizes` counts the sequences the pass and the link add to a
// binary, by kind, and the bytes they take, from the decoded instructions
// (the same view the checks have), so that a change to one form shows what
// it saved (utils/bench/run prints these per benchmark):
//
//   prefix             an entry's accounting in front of its function
//   prefix-filler      the int3s and NOPs before it, down to the previous
//                      code (alignment padding, which the plain build
//                      partly has too)
//   tail-stub          the tail alias's `jmp f` in that padding, which gives
//                      `__rsb_tail.f` an address of its own
//   out-of-line-entry  an entry in .text.rsb_call_thunks (with its jmp)
//   return-check       `shlq $5, %fs:...; je __rsb_refill_return` (and the
//                      shared-object form's %r11 load): a return in place
//   return-jump        `jmp __rsb_return_thunk` (or __rsb_tail_account) in
//                      place of a `ret`
//   shared-return      a `jmp` to another return's in-place check
//   mark-check         a checked indirect call: the check (in place, or the
//                      call of the runtime's shared copy and its `je`), the
//                      copy of the call for an unmarked target with its
//                      reset, the count (the original call not included);
//                      or the call of the runtime's copy that also makes
//                      the call (`__rsb_icall_r11`, less the 3 bytes of the
//                      `call *%r11` it stands for)
//   call-site-count    `sarq $5, %fs:...` before a call (table calls)
//   cap                `movq __rsb_cap.f(%rip), %r10; andq %r10, %fs:...`
//   reset              `call __rsb_reset_depth` elsewhere
//   tail-account       `call __rsb_tail_account[_flags]`
//   fallback           link-time fallback entries and tail stubs
//   runtime            the runtime's own functions (`__rsb_*`)
//
// Each instruction is counted once, in the first kind that claims it. A
// `ret` replaced by a jump took 1 byte: the added bytes are those less one
// per site.
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace rsbverify;

/// `call *%r11`, which the runtime's copy of a whole counted indirect call
/// stands for.
static constexpr uint64_t CallR11Bytes = 3;

namespace {
enum Kind : uint8_t {
  None,
  Prefix,
  PrefixFiller,
  TailStub,
  OutOfLineEntry,
  ReturnCheck,
  ReturnJump,
  SharedReturn,
  MarkCheck,
  CallSiteCount,
  Cap,
  Reset,
  TailAccounting,
  Fallback,
  Runtime,
  NumKinds
};

const char *const KindNames[NumKinds] = {"",
                                         "prefix",
                                         "prefix-filler",
                                         "tail-stub",
                                         "out-of-line-entry",
                                         "return-check",
                                         "return-jump",
                                         "shared-return",
                                         "mark-check",
                                         "call-site-count",
                                         "cap",
                                         "reset",
                                         "tail-account",
                                         "fallback",
                                         "runtime"};

class SizeCounter {
public:
  SizeCounter(const Binary &B)
      : B(B), D(B.decoder()), Kinds(B.Insns.size(), None) {}
  void run(raw_ostream &OS);

private:
  void claim(size_t First, size_t Last, Kind K, bool Site = true);
  void claimRange(uint64_t Start, uint64_t End, Kind K);
  void entries();
  void symbols();
  void sequences();
  bool onCounter(const MCInst &Inst, int64_t Shift) const;
  bool writes(size_t K, MCRegister Reg) const;
  size_t markCheck(size_t K);

  const Binary &B;
  const X86Decoder &D;
  std::vector<Kind> Kinds;
  uint64_t Sites[NumKinds] = {}, Bytes[NumKinds] = {};
  DenseSet<uint64_t> CheckStarts;
};
} // namespace

/// Instructions [First, Last) are one site of kind K (those not claimed).
void SizeCounter::claim(size_t First, size_t Last, Kind K, bool Site) {
  bool Any = false;
  for (size_t I = First; I < Last && I < Kinds.size(); ++I) {
    if (Kinds[I] != None)
      continue;
    Kinds[I] = K;
    Bytes[K] += B.Insns[I].End - B.Insns[I].Address;
    Any = true;
  }
  if (Any && Site)
    ++Sites[K];
}

void SizeCounter::claimRange(uint64_t Start, uint64_t End, Kind K) {
  auto [First, Last] = B.code(Start, End);
  claim(First, Last, K);
}

/// Each instrumented function's entry, its tail stub, and the int3s (or
/// NOPs) right before them: none where the prefix follows the previous
/// function's last instruction.
void SizeCounter::entries() {
  for (const Function &F : B.Functions) {
    const Symbol &E = *F.Entry;
    bool InFront = F.Start && E.Address + E.Size == *F.Start;
    claimRange(E.Address, E.Address + E.Size,
               InFront ? Prefix : OutOfLineEntry);
    auto First = B.insnAt(E.Address);
    if (!InFront || !First)
      continue;
    size_t K = *First;
    // The stub is the tail alias's, not a previous function's tail call
    // to f that ends right before f's prefix.
    std::string Tail = (TailPrefix + F.Name).str();
    if (const Insn *Prev = B.previous(K, 0);
        Prev && B.isJump(*Prev) && Prev->HasTarget &&
        Prev->Target == *F.Start && B.namedAt(Prev->Address, {Tail})) {
      claim(K - 1, K, TailStub);
      --K;
    }
    size_t Stub = K;
    while (const Insn *Prev = B.previous(K, 0)) {
      // objdump shows the padding past a function's size as data.
      bool Padding = Prev->Kind == InsnKind::Data ||
                     (Prev->Kind == InsnKind::Code &&
                      (B.mnemonic(*Prev) == "int3" ||
                       B.mnemonic(*Prev).starts_with("nop")));
      if (!Padding)
        break;
      --K;
    }
    claim(K, Stub, PrefixFiller);
  }
}

/// Fallbacks and stubs (entry and tail symbols that are neither an
/// instrumented function's entry nor its code) and the runtime.
void SizeCounter::symbols() {
  for (const auto &[Address, Symbols] : B.At) {
    bool Named = false, Entry = false, Other = false;
    uint64_t Size = 0;
    for (const Symbol *S : Symbols) {
      if (!S->isFunction())
        continue;
      Size = std::max(Size, S->Size);
      if (S->Name.starts_with(EntryPrefix) || S->Name.starts_with(TailPrefix))
        Entry = true;
      else if (S->Name.starts_with("__rsb_"))
        Named = true;
      else
        Other = true;
    }
    if (Other || B.Starts.count(Address) || B.Entries.count(Address))
      continue;
    if (Entry)
      claimRange(Address, Address + Size, Fallback);
    else if (Named)
      claimRange(Address, Address + Size, Runtime);
  }
}

/// `<op> $Shift, %fs:...` (Shift 0: any register operand instead).
bool SizeCounter::onCounter(const MCInst &Inst, int64_t Shift) const {
  auto Memory = D.memory(Inst);
  if (!Memory || Memory->Segment != D.reg("fs"))
    return false;
  return Shift ? D.firstImmediate(Inst) == Shift : bool(D.firstRegister(Inst));
}

/// Instruction K is a `mov` into Reg.
bool SizeCounter::writes(size_t K, MCRegister Reg) const {
  const Insn &I = B.Insns[K];
  return I.Kind == InsnKind::Code && B.mnemonic(I).starts_with("mov") &&
         D.lastRegister(B.decode(I)) == Reg;
}

/// The end of the mark check starting at K (`testl $0x3f0, %r11d`, or the
/// call of the runtime's shared copy): after the second branch through %r11
/// (the counted one, or the unmarked target's), or K when it is no such
/// check.
size_t SizeCounter::markCheck(size_t K) {
  MCInst Test = B.decode(B.Insns[K]);
  bool InPlace = B.mnemonic(B.Insns[K]).starts_with("test") &&
                 D.firstImmediate(Test) == 0x3f0 &&
                 D.lastRegister(Test) == D.reg("r11d");
  if (!InPlace && !B.isCallTo(B.Insns[K], {SharedMarkCheck}))
    return K;
  unsigned Branches = 0;
  for (size_t I = K + 1; I < B.Insns.size() && I < K + 24; ++I) {
    const Insn &Next = B.Insns[I];
    if (Next.Kind != InsnKind::Code)
      return K;
    StringRef M = B.mnemonic(Next);
    bool ThroughR11 = false;
    if (M.starts_with("call") || M == "jmp") {
      MCInst Inst = B.decode(Next);
      ThroughR11 =
          (Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg() &&
           Inst.getOperand(0).getReg() == D.reg("r11")) ||
          (B.label(Next) && B.label(Next)->stem() == "__llvm_retpoline_r11");
    }
    if (ThroughR11 && ++Branches == 2)
      return I + 1;
  }
  return K;
}

void SizeCounter::sequences() {
  MCRegister R10 = D.reg("r10"), R11 = D.reg("r11");
  for (size_t K = 0; K != B.Insns.size(); ++K) {
    const Insn &I = B.Insns[K];
    if (Kinds[K] != None || I.Kind != InsnKind::Code)
      continue;
    StringRef M = B.mnemonic(I);
    const Label *L = B.label(I);
    bool PrevLoadsR11 =
        K > 0 && B.previous(K, 0) && Kinds[K - 1] == None && writes(K - 1, R11);
    if (M.starts_with("test") || B.isCallTo(I, {SharedMarkCheck})) {
      size_t End = markCheck(K);
      if (End != K) {
        // The original call, the check's last branch, was there before.
        Bytes[MarkCheck] -= B.Insns[End - 1].End - B.Insns[End - 1].Address;
        claim(PrevLoadsR11 ? K - 1 : K, End, MarkCheck);
        K = End - 1;
      }
    } else if (B.isCallTo(I, {SharedIndirectCall})) {
      Bytes[MarkCheck] -= CallR11Bytes;
      claim(PrevLoadsR11 ? K - 1 : K, K + 1, MarkCheck);
    } else if (M.starts_with("shl")) {
      MCInst Inst = B.decode(I);
      if (!onCounter(Inst, 5) || K + 1 == B.Insns.size())
        continue;
      const Insn &Je = B.Insns[K + 1];
      if (B.mnemonic(Je) != "je" || !B.label(Je) ||
          B.label(Je)->stem() != RefillReturn)
        continue;
      size_t First = PrevLoadsR11 && D.memory(Inst)->Base == R11 ? K - 1 : K;
      CheckStarts.insert(B.Insns[First].Address);
      claim(First, K + 2, ReturnCheck);
    } else if (M.starts_with("sar") && onCounter(B.decode(I), 5)) {
      claim(K, K + 1, CallSiteCount);
    } else if (M.starts_with("and")) {
      MCInst Inst = B.decode(I);
      if (onCounter(Inst, 0) && D.firstRegister(Inst) == R10)
        claim(K > 0 && Kinds[K - 1] == None && writes(K - 1, R10) ? K - 1 : K,
              K + 1, Cap);
    } else if (B.isCallTo(I, {ResetDepth})) {
      claim(K, K + 1, Reset);
    } else if (B.isCallTo(I, {TailAccount, TailAccountFlags})) {
      claim(K, K + 1, TailAccounting);
    } else if (M == "jmp" && L &&
               (L->stem() == ReturnThunk || L->stem() == TailAccount)) {
      claim(K, K + 1, ReturnJump);
    }
  }
  // Jumps to an in-place check, once every check is known.
  for (size_t K = 0; K != B.Insns.size(); ++K) {
    const Insn &I = B.Insns[K];
    if (Kinds[K] == None && I.Kind == InsnKind::Code && I.HasTarget &&
        B.mnemonic(I) == "jmp" && CheckStarts.contains(I.Target))
      claim(K, K + 1, SharedReturn);
  }
}

void SizeCounter::run(raw_ostream &OS) {
  entries();
  symbols();
  sequences();
  uint64_t Executable = 0, Total = 0;
  for (const Section &S : B.Sections)
    if (S.executable() && S.allocated())
      Executable += S.Size;
  for (unsigned K = Prefix; K != NumKinds; ++K) {
    OS << B.Path << ": size " << KindNames[K] << " " << Sites[K] << " "
       << Bytes[K] << "\n";
    Total += Bytes[K];
  }
  OS << B.Path << ": size total " << Total << " of " << Executable
     << " executable bytes\n";
}

void rsbverify::printSizes(const Binary &B, raw_ostream &OS) {
  SizeCounter(B).run(OS);
}
