//===- Checks.cpp - The checks of rsb-verify ------------------------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Every check of the tool's header (rsb-verify.cpp), over the instrumented
// functions Functions.cpp found. Each violation is one line: "file: address
// symbol: message", or "file: message" for the file as a whole.
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"

#include <set>

using namespace llvm;
using namespace rsbverify;

// The check in front of an indirect tail call that jumps straight to a
// target carrying an accounting entry's mark
// (llvm-pass/RSBStuffIndirectCalls.cpp), from its first instruction to the
// one before the jump: `testl $0x3f0, %r11d; je; movq -0x8(%r11), %r10;
// cmpq __rsb_prefix_mark(%rip), %r10; jne; cmpw $0x4864, -0xa(%r11); jne`.
static constexpr unsigned MarkCheckLength = 7;
// Returns other than the plain `ret`, and far jumps: never accounted.
static const StringLiteral OtherExits[] = {"lret",  "iret", "sysret", "sysexit",
                                           "uiret", "eret", "ljmp"};

static std::string hex(uint64_t Value) {
  return "0x" + utohexstr(Value, /*LowerCase=*/true);
}

namespace {
class Verifier {
public:
  Verifier(ArrayRef<std::unique_ptr<Binary>> Inputs, const StringSet<> &Allowed,
           const StringSet<> &Required);
  Findings run();

private:
  void error(const Binary &B, uint64_t Shown, StringRef Symbol,
             const Twine &Message);
  void note(const Binary &B, uint64_t Shown, StringRef Symbol,
            const Twine &Message);
  void fileError(const Binary &B, const Twine &Message);
  bool mayBeRedirected(const Binary &B, uint64_t Address) const;

  void checkInputs(const Binary &B);
  void checkDefined(const Binary &B);
  void checkExits(const Binary &B, const Function &F);
  void checkBranches(const Binary &B);
  void checkInside(const Binary &B);
  void checkTailAliases(const Binary &B);
  void checkRequired();
  void checkEarlyResolvers(const Binary &B);

  bool accounted(const Binary &B, size_t K, const Function &F) const;
  const Insn *callBefore(const Binary &B, size_t &K, const Function &F) const;
  bool afterReturnCheck(const Binary &B, size_t K, const Function &F) const;
  bool afterMarkCheck(const Binary &B, size_t K, const Function &F) const;
  bool landsIn(const Binary &B, const Function &F, uint64_t Low,
               uint64_t High) const;
  std::optional<std::string> directJump(const Binary &B, const Function &F,
                                        size_t K) const;
  std::optional<std::string> indirectJump(const Binary &B, const Function &F,
                                          size_t K) const;
  bool dispatch(const Binary &B, const Function &F,
                ArrayRef<const Insn *> Before, MCRegister Reg) const;
  bool followedByReset(const Binary &B, size_t K) const;

  ArrayRef<std::unique_ptr<Binary>> Inputs;
  const StringSet<> &Allowed, &Required;
  /// Instrumented functions that only a counted call should reach:
  /// neither weak nor sharing their address with an alias.
  StringSet<> Strict;
  Findings Result;
};
} // namespace

Verifier::Verifier(ArrayRef<std::unique_ptr<Binary>> Inputs,
                   const StringSet<> &Allowed, const StringSet<> &Required)
    : Inputs(Inputs), Allowed(Allowed), Required(Required) {
  for (const auto &B : Inputs)
    for (const Function &F : B->Functions)
      if (F.Start && !mayBeRedirected(*B, *F.Start))
        Strict.insert(F.Name);
}

void Verifier::error(const Binary &B, uint64_t Shown, StringRef Symbol,
                     const Twine &Message) {
  Result.Violations.push_back((B.Path + ": " + hex(Shown) + " " +
                               (Symbol.empty() ? StringRef("?") : Symbol) +
                               ": " + Message)
                                  .str());
}

void Verifier::note(const Binary &B, uint64_t Shown, StringRef Symbol,
                    const Twine &Message) {
  Result.Notes.push_back((B.Path + ": " + hex(Shown) + " " +
                          (Symbol.empty() ? StringRef("?") : Symbol) +
                          ": note: " + Message)
                             .str());
}

void Verifier::fileError(const Binary &B, const Twine &Message) {
  Result.Violations.push_back((B.Path + ": " + Message).str());
}

/// A weak definition, or one that an alias shares: the pass calls it
/// uncounted, because the link may send the name elsewhere.
bool Verifier::mayBeRedirected(const Binary &B, uint64_t Address) const {
  auto Symbols = B.At.find(Address);
  if (Symbols == B.At.end())
    return false;
  auto Start = B.Starts.find(Address);
  const Function *F = Start != B.Starts.end() ? Start->second : nullptr;
  for (const Symbol *S : Symbols->second) {
    StringRef Name = S->Name;
    bool Own = F && (Name == F->Name ||
                     (Name.consume_front(BodyPrefix) && Name == F->Name));
    if (S->Binding == ELF::STB_WEAK ||
        (!Own && !S->Name.starts_with(EntryPrefix)))
      return true;
  }
  return false;
}

void Verifier::checkInputs(const Binary &B) {
  if (!B.Functions.empty() || !B.Elided.empty() || B.Insns.empty())
    return;
  if (!Allowed.contains(realPath(B.Path)))
    fileError(B, "no instrumented function (built without rsb-stuff?)");
}

/// An entry a linked file references but does not define: weak, it
/// resolves to address 0 when nothing defines it; strong in the static
/// symbol table only, the link was told to ignore it (also address 0);
/// strong and dynamic, the dynamic linker must find it in an input.
void Verifier::checkDefined(const Binary &B) {
  if (!B.linked())
    return;
  struct Use {
    bool Weak = false, Dynamic = false;
  };
  std::map<std::string, Use> Undefined;
  for (const auto &[Index, Symbols] : B.Tables) {
    bool Dynamic = B.Sections[Index].Type == ELF::SHT_DYNSYM;
    for (const Symbol &S : Symbols) {
      if (!S.Undefined ||
          !(S.Name.starts_with(EntryPrefix) || S.Name.starts_with(TailPrefix)))
        continue;
      Use &U = Undefined[S.Name.str()];
      U.Weak |= S.Binding == ELF::STB_WEAK;
      U.Dynamic |= Dynamic;
    }
  }
  for (const auto &[Name, U] : Undefined) {
    const char *Why;
    if (U.Weak)
      Why = "weak undefined: a call to it lands on address 0";
    else if (!U.Dynamic)
      Why = "undefined: a call to it lands on address 0";
    else if (none_of(Inputs, [&, &Name = Name](const auto &Other) {
               return Other.get() != &B && Other->Exported.contains(Name);
             }))
      Why = "undefined, and no other input defines it (give the shared "
            "object that does)";
    else
      continue;
    fileError(B, "entry symbol " + Name + " is " + Why);
  }
}

void Verifier::checkExits(const Binary &B, const Function &F) {
  auto [First, Last] = B.code(*F.Start, F.End);
  for (size_t K = First; K != Last; ++K) {
    const Insn &I = B.Insns[K];
    if (I.Kind != InsnKind::Code)
      continue;
    StringRef M = B.mnemonic(I);
    std::optional<std::string> Why;
    bool PlainRet = M == "ret" || M == "retl" || M == "retq" || M == "retw";
    if (PlainRet && B.decode(I).getNumOperands() == 0) {
      if (!accounted(B, K, F) && !afterReturnCheck(B, K, F))
        Why = "`ret` in instrumented function " + F.Name;
    } else if (PlainRet || any_of(OtherExits, [&](StringRef Exit) {
                 return M.starts_with(Exit);
               })) {
      auto [Mnemonic, Operands] = B.text(I);
      Why = "unaccounted function exit `" +
            StringRef(Mnemonic + " " + Operands).trim().str() +
            "` in instrumented function " + F.Name;
    } else if (M.starts_with("j") && B.decoder().isIndirectBranch(I.Opcode)) {
      Why = indirectJump(B, F, K);
    } else if (M.starts_with("j")) {
      Why = directJump(B, F, K);
    }
    if (Why)
      error(B, B.shown(I), B.symbol(I), *Why);
  }
}

/// Instruction K of F comes right after a call to the helper that does the
/// return thunk's accounting, possibly followed by a call to the one that
/// clears the credit (XRay's exit sled: a patched sled runs a handler
/// before its plain `ret`). A reset alone accounts nothing: the plain `ret`
/// or jump after it would spend an RSB entry that no check vouched for.
/// The red zone may be stepped over around each call (`leaq -0x80(%rsp),
/// %rsp; call; leaq 0x80(%rsp), %rsp`).
bool Verifier::accounted(const Binary &B, size_t K, const Function &F) const {
  const Insn *Prev = callBefore(B, K, F);
  if (Prev && B.isCallTo(*Prev, {ResetDepth}))
    Prev = callBefore(B, K, F);
  return Prev && B.isCallTo(*Prev, {TailAccount, TailAccountFlags});
}

/// The instruction before K, skipping XRay's alignment NOPs and the
/// red-zone step after a call; K becomes its index.
const Insn *Verifier::callBefore(const Binary &B, size_t &K,
                                 const Function &F) const {
  const Insn *Prev = B.previous(K, *F.Start);
  K -= 1;
  while (Prev && B.mnemonic(*Prev).starts_with("nop")) {
    Prev = B.previous(K, *F.Start);
    K -= 1;
  }
  if (Prev && B.mnemonic(*Prev).starts_with("lea")) {
    MCInst Inst = B.decode(*Prev);
    auto Memory = B.decoder().memory(Inst);
    MCRegister RSP = B.decoder().reg("rsp");
    if (B.decoder().lastRegister(Inst) == RSP && Memory &&
        Memory->Base == RSP && !Memory->Index && !Memory->Segment &&
        Memory->Disp == 0x80) {
      Prev = B.previous(K, *F.Start);
      K -= 1;
    }
  }
  return Prev;
}

/// The `ret` at K ends the inline return check: `shlq $5` on the counter
/// (an %fs: operand; the shared-object form addresses it through %r11),
/// then `je __rsb_refill_return`, each falling into the next, and no
/// branch of F lands on the `je` or the `ret`, which would skip the shift.
bool Verifier::afterReturnCheck(const Binary &B, size_t K,
                                const Function &F) const {
  const Insn *Je = B.previous(K, *F.Start);
  const Insn *Shl = Je ? B.previous(K - 1, *F.Start) : nullptr;
  if (!Shl || B.mnemonic(*Je) != "je" || !B.label(*Je) ||
      B.label(*Je)->stem() != RefillReturn)
    return false;
  if (!B.mnemonic(*Shl).starts_with("shl"))
    return false;
  MCInst Inst = B.decode(*Shl);
  auto Memory = B.decoder().memory(Inst);
  if (B.decoder().firstImmediate(Inst) != 5 || !Memory ||
      Memory->Segment != B.decoder().reg("fs"))
    return false;
  return !landsIn(B, F, Je->Address, B.Insns[K].Address);
}

/// Whether a branch of F goes to an address in [Low, High].
bool Verifier::landsIn(const Binary &B, const Function &F, uint64_t Low,
                       uint64_t High) const {
  if (!F.HasTargets) {
    auto [First, Last] = B.code(*F.Start, F.End);
    for (size_t K = First; K != Last; ++K)
      if (B.Insns[K].HasTarget)
        F.Targets.push_back(B.Insns[K].Target);
    llvm::sort(F.Targets);
    F.HasTargets = true;
  }
  auto It = llvm::lower_bound(F.Targets, Low);
  return It != F.Targets.end() && *It <= High;
}

/// Why the jump at K may leave F without its return thunk: a tail call
/// must go to an instrumented function's start, to a tail entry
/// (__rsb_tail.g: g's code, or an accounting stub or fallback), or come
/// right after the accounting helpers.
std::optional<std::string>
Verifier::directJump(const Binary &B, const Function &F, size_t K) const {
  const Insn &I = B.Insns[K];
  if (I.HasTarget && *F.Start <= I.Target && I.Target < F.End)
    return std::nullopt;
  if ((I.HasTarget && B.Starts.count(I.Target)) || accounted(B, K, F))
    return std::nullopt;
  // The names of the target, each with whether the jump goes to its start.
  SmallVector<std::pair<std::string, bool>, 4> Names;
  if (I.HasTarget)
    if (auto Symbols = B.At.find(I.Target); Symbols != B.At.end())
      for (const Symbol *S : Symbols->second)
        Names.push_back({S->Name.str(), true});
  std::optional<rsbverify::Label> Label;
  if (B.label(I))
    Label = *B.label(I);
  else if (I.HasTarget)
    Label = B.functionAt(I.Target);
  if (Label) {
    // The symbol's name, without `@plt`.
    StringRef Name = Label->Name;
    Name.consume_back("@plt");
    Names.push_back({Name.str(), Label->Offset == 0});
  }
  // __rsb_tail_account is also the return thunk of functions that must
  // keep %r11: it accounts the return and returns, like the thunk. Only
  // their starts account: past its call, the tail stub of an elided
  // function is a plain jump to it.
  for (const auto &[Name, AtStart] : Names)
    if (B.partOf(Name) == StringRef(F.Name) ||
        (AtStart &&
         (StringRef(Name).starts_with(TailPrefix) || Name == ReturnThunk ||
          Name == RefillReturn || Name == TailAccount)))
      return std::nullopt;
  return ("unaccounted function exit: tail call `" + B.mnemonic(I) + " " +
          (Label ? Label->text() : hex(I.HasTarget ? I.Target : 0)) +
          "` from instrumented function " + F.Name +
          " neither goes to instrumented code nor comes after " + TailAccount)
      .str();
}

/// Why the indirect jump at K may leave F without its return thunk, or
/// nothing when it is a tail call after the accounting helpers, a tail call
/// to a marked target or a jump-table dispatch.
std::optional<std::string>
Verifier::indirectJump(const Binary &B, const Function &F, size_t K) const {
  const X86Decoder &D = B.decoder();
  SmallVector<const Insn *, 8> Before;
  while (Before.size() < 8) {
    const Insn *Prev = B.previous(K - Before.size(), *F.Start);
    if (!Prev)
      break;
    Before.push_back(Prev);
  }
  if (accounted(B, K, F))
    return std::nullopt; // a tail call, accounted
  const Insn &I = B.Insns[K];
  MCInst Inst = B.decode(I);
  MCRegister Register = Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg()
                            ? Inst.getOperand(0).getReg()
                            : MCRegister();
  if (Register == D.reg("r11") && afterMarkCheck(B, K, F))
    return std::nullopt; // a tail call to a marked target
  if (Register) {
    MCRegister Reg = D.fullRegister(Register);
    ArrayRef<const Insn *> Pop = Before;
    bool Fence = !Before.empty() && B.mnemonic(*Before[0]) == "lfence";
    Pop = Fence ? Pop.slice(1).take_front(1) : Pop.take_front(1);
    if (!Pop.empty() && B.mnemonic(*Pop[0]).starts_with("pop")) {
      MCInst Popped = B.decode(*Pop[0]);
      if (Popped.getNumOperands() == 1 && Popped.getOperand(0).isReg() &&
          D.fullRegister(Popped.getOperand(0).getReg()) == Reg) {
        std::string Name = D.registerName(Reg);
        return "unaccounted function exit: return through `pop %" + Name +
               "; " + (Fence ? "lfence; " : "") + "jmp *%" + Name +
               "` (LVI hardening?) in instrumented function " + F.Name;
      }
    }
    if (dispatch(B, F, Before, Reg))
      return std::nullopt;
  } else if (auto Memory = D.memory(Inst);
             Memory && Memory->Index && Memory->Scale == 8) {
    return std::nullopt; // jmp *table(,%index,8)
  }
  if (B.takesAddressIn(*F.Start, F.End))
    return std::nullopt; // a computed goto to a label of F
  std::string Target = D.print(Inst, B.shown(I)).second;
  return "unaccounted function exit: `jmp *" + Target.substr(1) +
         "` in instrumented function " + F.Name +
         " is neither a jump-table dispatch nor a tail call after " +
         TailAccount.str();
}

/// The instructions right before K are the mark check, inside F, and no
/// branch of F lands after the first of them up to K.
bool Verifier::afterMarkCheck(const Binary &B, size_t K,
                              const Function &F) const {
  if (K < MarkCheckLength || B.Insns[K - MarkCheckLength].Address < *F.Start)
    return false;
  const X86Decoder &D = B.decoder();
  MCRegister R10 = D.reg("r10"), R11 = D.reg("r11");
  auto Insn = [&](unsigned N) -> const rsbverify::Insn & {
    return B.Insns[K - 1 - N];
  };
  for (unsigned N = 0; N != MarkCheckLength; ++N)
    if (Insn(N).Kind != InsnKind::Code || Insn(N).End != B.Insns[K - N].Address)
      return false;
  auto Is = [&](unsigned N, StringRef Mnemonic) {
    return B.mnemonic(Insn(N)) == Mnemonic;
  };
  auto At = [&](const MCInst &Inst, MCRegister Base, int64_t Disp) {
    auto Memory = D.memory(Inst);
    return Memory && Memory->Base == Base && !Memory->Index &&
           !Memory->Segment && Memory->Disp == Disp;
  };
  if (!Is(0, "jne") || !Is(1, "cmpw") || !Is(2, "jne") || !Is(3, "cmpq") ||
      !Is(4, "movq") || !Is(5, "je") || !Is(6, "testl"))
    return false;
  MCInst Cmpw = B.decode(Insn(1)), Cmpq = B.decode(Insn(3)),
         Movq = B.decode(Insn(4)), Testl = B.decode(Insn(6));
  if (D.firstImmediate(Cmpw) != 0x4864 || !At(Cmpw, R11, -0xa) ||
      D.lastRegister(Movq) != R10 || !D.memoryFirst(Movq) ||
      !At(Movq, R11, -0x8) || D.firstImmediate(Testl) != 0x3f0 ||
      D.lastRegister(Testl) != D.reg("r11d"))
    return false;
  // cmpq __rsb_prefix_mark(%rip), %r10: the mark named by the relocation
  // or, linked, by the symbol at the address.
  auto Memory = D.memory(Cmpq);
  if (D.lastRegister(Cmpq) != R10 || !D.memoryFirst(Cmpq) ||
      Memory->Base != D.reg("rip") || Memory->Index)
    return false;
  std::optional<rsbverify::Label> Mark;
  if (B.label(Insn(3)))
    Mark = *B.label(Insn(3));
  else if (auto Address = D.memoryTarget(Cmpq, B.shown(Insn(3)), Insn(3).Size))
    Mark = B.labelAt(*Address, Insn(3).SectionIndex);
  if (!Mark || Mark->Offset || Mark->Name != PrefixMark)
    return false;
  return !landsIn(B, F, Insn(MarkCheckLength - 1).End, B.Insns[K].Address);
}

/// The jumped-to register comes from a table: a scaled-index load, possibly
/// added to the table's base (PIC tables: movslq + add, in either order;
/// the large code model adds from the table), or it is the address of a
/// label of F (lea).
bool Verifier::dispatch(const Binary &B, const Function &F,
                        ArrayRef<const Insn *> Before, MCRegister Reg) const {
  const X86Decoder &D = B.decoder();
  for (size_t N = 0; N != Before.size(); ++N) {
    const Insn &I = *Before[N];
    StringRef M = B.mnemonic(I);
    if (M.starts_with("jmp") || M.starts_with("call") || M.starts_with("ret"))
      return false;
    if (I.Kind != InsnKind::Code)
      continue;
    MCInst Inst = B.decode(I);
    MCRegister Destination = D.lastRegister(Inst);
    if (!Destination || D.fullRegister(Destination) != Reg)
      continue;
    if (D.memoryFirst(Inst)) {
      auto Memory = D.memory(Inst);
      if (Memory->Index && (Memory->Scale == 4 || Memory->Scale == 8))
        return true;
    }
    if (M.starts_with("lea")) {
      auto Label = D.memoryTarget(Inst, B.shown(I), I.Size);
      return Label && *F.Start < *Label && *Label < F.End;
    }
    MCRegister Source = D.firstRegister(Inst);
    if (!M.starts_with("add") || !Source)
      return false;
    // add %base, %reg: the entry was loaded into one of the two.
    return dispatch(B, F, Before.drop_front(N + 1), Reg) ||
           dispatch(B, F, Before.drop_front(N + 1), D.fullRegister(Source));
  }
  return false;
}

bool Verifier::followedByReset(const Binary &B, size_t K) const {
  return K + 1 < B.Insns.size() && B.Insns[K + 1].Address == B.Insns[K].End &&
         B.isCallTo(B.Insns[K + 1], {ResetDepth});
}

void Verifier::checkBranches(const Binary &B) {
  for (size_t K = 0; K != B.Insns.size(); ++K) {
    const Insn &I = B.Insns[K];
    if (!I.HasTarget && !B.label(I))
      continue;
    std::string Label = B.label(I) ? B.label(I)->text() : "";
    bool External = StringRef(Label).ends_with("@plt") || !I.HasTarget;
    std::string Name = External ? StringRef(Label).split('@').first.str() : "";
    if (B.isCall(I)) {
      // Uncounted, the call only makes the count fall short, and the
      // callee's own calls and returns are accounted: safe, but the pass
      // never emits it (inline assembly does), so --list says so.
      if (!B.instrumentedCode(I) || followedByReset(B, K))
        continue;
      if (I.HasTarget && B.Starts.count(I.Target) &&
          !mayBeRedirected(B, I.Target))
        note(B, B.shown(I), B.symbol(I),
             "call to " + B.Starts.at(I.Target)->Name +
                 " bypasses its accounting entry (uncounted: safe)");
      else if (External && Strict.contains(Name))
        note(B, B.shown(I), B.symbol(I),
             "call " +
                 Twine(StringRef(Label).ends_with("@plt") ? "through the PLT "
                                                          : "") +
                 "to " + Name +
                 " bypasses its accounting entry (uncounted: safe)");
    } else if (B.isJump(I)) {
      if (B.symbol(I).starts_with(EntryPrefix) ||
          B.symbol(I).starts_with(TailPrefix))
        continue;
      if (I.HasTarget && B.Entries.count(I.Target))
        error(B, B.shown(I), B.symbol(I),
              "jump to the accounting entry of " +
                  B.Entries.at(I.Target)->Name + " counts a call");
      else if (External && StringRef(Name).starts_with(EntryPrefix))
        error(B, B.shown(I), B.symbol(I), "jump to " + Name + " counts a call");
    }
  }
}

void Verifier::checkInside(const Binary &B) {
  for (const Insn &I : B.Insns) {
    if (!(B.isJump(I) || B.isCall(I)))
      continue;
    // Past its first byte an entry is a piece of the accounting sequence
    // (or a cut through one of its instructions): a call landing there
    // may count with a register not loaded, pop the return address into
    // %r11, or not count at all.
    if (const rsbverify::Label *L = B.label(I);
        L && L->Offset && L->Name.starts_with(EntryPrefix) && !I.HasTarget)
      error(B, B.shown(I), B.symbol(I),
            "branch into the middle of accounting entry " + L->text());
    if (!I.HasTarget)
      continue;
    if (const Function *F = B.entryOf(I.Target);
        F && I.Target != F->Entry->Address)
      error(B, B.shown(I), B.symbol(I),
            "branch into the middle of the accounting entry of " + F->Name +
                " (" + hex(I.Target - (I.Address - B.shown(I))) + ")");
    const Function *F = B.bodyOf(I.Target);
    if (!F || I.Target == *F->Start)
      continue;
    if ((*F->Start <= I.Address && I.Address < F->End) ||
        B.partOf(B.symbol(I)) == StringRef(F->Name))
      continue;
    error(B, B.shown(I), B.symbol(I),
          "branch into the middle of instrumented function " + F->Name + " (" +
              hex(I.Target - (I.Address - B.shown(I))) + ")");
  }
}

/// A static program runs its resolvers from the C library's start-up,
/// before there is a thread pointer: code that touches the counter (an
/// instrumented function, an entry, the runtime's helpers) faults there.
/// Follows the resolvers' direct calls and jumps through plain code.
void Verifier::checkEarlyResolvers(const Binary &B) {
  // Resolvers are small and few; the walk stops at this many functions.
  constexpr size_t WalkLimit = 256;
  for (uint64_t Resolver : B.Resolvers) {
    auto Report = [&](const Insn *I, const Twine &What) {
      std::optional<rsbverify::Label> Name = B.functionAt(Resolver);
      std::string Text = Name ? Name->text() : hex(Resolver);
      error(B, I ? B.shown(*I) : Resolver, I ? B.symbol(*I) : StringRef(Text),
            "resolver " + Text + " reaches " + What +
                ", which touches the counter before a static program has a "
                "thread pointer");
    };
    // Whether the code from Start reaches the counter; queues its callees.
    std::vector<uint64_t> Work{Resolver};
    std::set<uint64_t> Seen{Resolver};
    if (const Function *F = B.bodyOf(Resolver)) {
      Report(nullptr, "instrumented function " + F->Name);
      continue;
    }
    auto Reaches = [&](uint64_t Start) {
      uint64_t Size = 0;
      if (auto Symbols = B.At.find(Start); Symbols != B.At.end())
        for (const Symbol *S : Symbols->second)
          Size = std::max(Size, S->Size);
      auto [First, Last] = B.code(Start, Start + Size);
      for (size_t K = First; K != Last; ++K) {
        const Insn &I = B.Insns[K];
        if (!B.isCall(I) && !B.isJump(I))
          continue;
        if (const rsbverify::Label *L = B.label(I);
            L && L->Name.starts_with("__rsb_")) {
          Report(&I, L->text());
          return true;
        }
        if (!I.HasTarget || (Start <= I.Target && I.Target < Start + Size))
          continue;
        if (const Function *F = B.entryOf(I.Target)) {
          Report(&I, "the accounting entry of " + F->Name);
          return true;
        }
        if (const Function *F = B.bodyOf(I.Target)) {
          Report(&I, "instrumented function " + F->Name);
          return true;
        }
        if (Seen.insert(I.Target).second)
          Work.push_back(I.Target);
      }
      return false;
    };
    while (!Work.empty() && Seen.size() <= WalkLimit) {
      uint64_t Start = Work.back();
      Work.pop_back();
      if (Reaches(Start))
        break;
    }
  }
}

void Verifier::checkRequired() {
  std::vector<StringRef> Names;
  for (const auto &Name : Required)
    Names.push_back(Name.getKey());
  llvm::sort(Names);
  for (const auto &B : Inputs) {
    for (StringRef Name : Names)
      if (B->ByName.count(Name) && !B->Names.contains(Name) &&
          !is_contained(B->Elided, Name) && !B->onlyResolvers(Name))
        fileError(*B, Name + " is not instrumented (required by "
                             "--require-instrumented)");
  }
}

/// Tail calls to `__rsb_tail.g` are accepted by name (directJump), so each
/// definition must be one of the forms that end the counted call with one
/// accounted return: a jump to the start of an instrumented function (the
/// stub in front of its entry, or out of line), or a call to the reset or
/// the accounting helper first (rsb-ld's old fallback, an elided function's
/// stub), or rsb-ld's fallback frame, which calls the callee and jumps to
/// the reset when it returns (the reset's return ends the counted call
/// with no credit left). A jump anywhere else, an entry included, could over-count.
void Verifier::checkTailAliases(const Binary &B) {
  for (const auto &Named : B.ByName) {
    if (!Named.getKey().starts_with(TailPrefix))
      continue;
    for (const Symbol *Tail : Named.getValue()) {
      std::optional<size_t> K = B.insnAt(Tail->Address);
      if (K && B.mnemonic(B.Insns[*K]) == "endbr64")
        ++*K;
      if (!K || *K >= B.Insns.size())
        continue;
      const Insn &I = B.Insns[*K];
      if (B.isCallTo(I, {ResetDepth, TailAccount}) || B.isFallbackFrame(*K) ||
          (B.isJump(I) && I.HasTarget && B.Starts.count(I.Target)))
        continue;
      error(B, B.shown(I), Tail->Name,
            "tail alias " + Tail->Name +
                " neither jumps to the start of an instrumented function nor "
                "accounts the return first");
    }
  }
}

Findings Verifier::run() {
  for (const auto &B : Inputs) {
    checkInputs(*B);
    checkDefined(*B);
    for (const Problem &P : B->Problems)
      error(*B, P.Shown, P.Symbol, P.Message);
    for (const Function &F : B->Functions)
      if (F.Start)
        checkExits(*B, F);
    checkBranches(*B);
    checkInside(*B);
    checkTailAliases(*B);
    if (B->isStatic() && !B->startsInRuntime())
      checkEarlyResolvers(*B);
  }
  checkRequired();
  return std::move(Result);
}

Findings rsbverify::verify(ArrayRef<std::unique_ptr<Binary>> Inputs,
                           const StringSet<> &Allowed,
                           const StringSet<> &Required) {
  return Verifier(Inputs, Allowed, Required).run();
}
