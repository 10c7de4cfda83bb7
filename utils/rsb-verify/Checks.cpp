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

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"

#include <deque>
#include <set>

using namespace llvm;
using namespace rsbverify;

// The check that the target in %r11 carries an accounting entry's mark
// (llvm-pass/RSBStuffIndirectCalls.cpp), its last branch included: `testl
// $0x3f0, %r11d; je; movq -0x8(%r11), %r10; cmpq __rsb_prefix_mark(%rip),
// %r10; jne; cmpw $0x4864, -0xa(%r11)`, then `jne` to the unmarked path in
// front of an indirect tail call, `je` to the counted call in front of a
// call.
static constexpr unsigned MarkCheckLength = 7;
// The registers a call may change (the C convention's caller-saved ones).
static const StringLiteral CallClobbered[] = {"rax", "rcx", "rdx", "rsi", "rdi",
                                              "r8",  "r9",  "r10", "r11"};
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
  void checkCounts(const Binary &B, const Function &F);
  void checkBranches(const Binary &B);
  void checkInside(const Binary &B);
  void checkTailAliases(const Binary &B);
  void checkRequired();
  void checkEarlyResolvers(const Binary &B);

  bool accounted(const Binary &B, size_t K, const Function &F) const;
  const Insn *callBefore(const Binary &B, size_t &K, const Function &F) const;
  bool afterReturnCheck(const Binary &B, size_t K, const Function &F) const;
  bool afterMarkCheck(const Binary &B, size_t K, const Function &F) const;
  bool endsMarkCheck(const Binary &B, size_t J, const Function &F,
                     StringRef Final) const;
  std::optional<std::string> countedCall(const Binary &B, const Function &F,
                                         size_t K) const;
  std::optional<std::string> markCounted(const Binary &B, const Function &F,
                                         size_t K) const;
  std::optional<std::string> sharedCheck(const Binary &B, const Function &F,
                                         size_t K) const;
  std::optional<std::string> tableCall(const Binary &B, const Function &F,
                                       size_t K) const;
  std::optional<std::string> tableHolds(const Binary &B,
                                        uint64_t Address) const;
  struct LocalJumps;
  bool lastWrites(const Binary &B, const Function &F, size_t K, MCRegister Reg,
                  SmallVectorImpl<size_t> &Writes, std::string &Why,
                  bool Anywhere = false) const;
  const LocalJumps &jumpsWithin(const Binary &B, const Function &F) const;
  bool jumpTargets(const Binary &B, const Function &F, size_t J,
                   SmallVectorImpl<size_t> &Targets) const;
  bool readJumpTable(const Binary &B, const Function &F, uint64_t Table,
                     unsigned Size, SmallVectorImpl<size_t> &Targets) const;
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
  /// A function's jumps within itself through a register or memory: all of
  /// them, those whose table could not be read, and the others by target.
  struct LocalJumps {
    SmallVector<size_t, 2> All, Unread;
    DenseMap<size_t, SmallVector<size_t, 2>> Into;
  };
  mutable std::map<const Function *, LocalJumps> IndirectJumps;
  /// The split-off parts of the inputs' instrumented functions, each held
  /// to its owner's rules (addSplitOffParts); kept, with stable addresses,
  /// as long as IndirectJumps may name them.
  std::deque<Function> Parts;
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
  if (Prev && B.isStackLea(*Prev, 0x80)) {
    Prev = B.previous(K, *F.Start);
    K -= 1;
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
  // -mretpoline's form of the counted indirect tail call: `jmp *%r11`.
  if (const rsbverify::Label *L = B.label(I);
      L && L->stem() == RetpolineR11 && afterMarkCheck(B, K, F))
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
  // keep %r11: it accounts the return and returns, like the thunk. A jump
  // to __rsb_reset_depth (after a tail call's callee was called from a
  // frame) clears the credit, and its `ret` ends the call with none left.
  // Only their starts account: past its call, the tail stub of an elided
  // function is a plain jump to it. Anywhere into f from one of its split-
  // off parts, or into a part from f, is a branch within the function,
  // whose exits are each checked.
  for (const auto &[Name, AtStart] : Names)
    if (Name == F.Name || B.partOf(Name) == StringRef(F.Name) ||
        (AtStart &&
         (StringRef(Name).starts_with(TailPrefix) || Name == ReturnThunk ||
          Name == RefillReturn || Name == TailAccount || Name == ResetDepth)))
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

/// The instructions right before K are the mark check that ends in `jne`
/// (to the unmarked path), and no branch of F lands on K.
bool Verifier::afterMarkCheck(const Binary &B, size_t K,
                              const Function &F) const {
  return B.previous(K, *F.Start) && endsMarkCheck(B, K - 1, F, "jne") &&
         !landsIn(B, F, B.Insns[K].Address, B.Insns[K].Address);
}

/// Instruction J is the mark check's last branch, Final (`jne` or `je`),
/// the whole check lies inside F, and no branch of F lands after its first
/// instruction up to J.
bool Verifier::endsMarkCheck(const Binary &B, size_t J, const Function &F,
                             StringRef Final) const {
  if (J + 1 < MarkCheckLength ||
      B.Insns[J + 1 - MarkCheckLength].Address < *F.Start ||
      B.Insns[J].Address >= F.End)
    return false;
  const X86Decoder &D = B.decoder();
  MCRegister R10 = D.reg("r10"), R11 = D.reg("r11");
  auto Insn = [&](unsigned N) -> const rsbverify::Insn & {
    return B.Insns[J - N];
  };
  for (unsigned N = 0; N != MarkCheckLength; ++N)
    if (Insn(N).Kind != InsnKind::Code ||
        (N && Insn(N).End != Insn(N - 1).Address))
      return false;
  auto Is = [&](unsigned N, StringRef Mnemonic) {
    return B.mnemonic(Insn(N)) == Mnemonic;
  };
  auto At = [&](const MCInst &Inst, MCRegister Base, int64_t Disp) {
    auto Memory = D.memory(Inst);
    return Memory && Memory->Base == Base && !Memory->Index &&
           !Memory->Segment && Memory->Disp == Disp;
  };
  if (!Is(0, Final) || !Is(1, "cmpw") || !Is(2, "jne") || !Is(3, "cmpq") ||
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
  return !landsIn(B, F, Insn(MarkCheckLength - 1).End, Insn(0).End - 1);
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

/// `sar $5` on an %fs: operand: the counter's shift, as every entry has it
/// (Functions.cpp). At a constant offset that no entry of the input uses,
/// it shifts the program's own thread-local variable (`x >>= 5`); with a
/// register in the address (the initial-exec form) it may be the counter.
static bool isCount(const Binary &B, const Insn &I) {
  if (!B.isFsShiftBy5(I))
    return false;
  std::optional<std::string> Offset = B.counterOffset(I);
  return !Offset || B.CounterOffsets.empty() ||
         B.CounterOffsets.contains(*Offset);
}

/// What may come between a count and its call: the statistics build's
/// `incq` of its block, and the initial-exec form's load of that block's
/// offset into %r11.
static bool mayFollowCount(const Binary &B, const Insn &I) {
  if (I.Kind != InsnKind::Code)
    return false;
  const X86Decoder &D = B.decoder();
  StringRef M = B.mnemonic(I);
  MCInst Inst = B.decode(I);
  auto Memory = D.memory(Inst);
  if (M.starts_with("inc"))
    return Memory && Memory->Segment == D.reg("fs");
  return M == "movq" && D.memoryFirst(Inst) && Memory->Base == D.reg("rip") &&
         D.lastRegister(Inst) == D.reg("r11");
}

/// `call *%r11`, or the retpoline's call of the target in %r11.
static bool callsR11(const Binary &B, const Insn &I) {
  if (!B.isCall(I))
    return false;
  if (const Label *L = B.label(I); L && L->stem() == RetpolineR11)
    return true;
  MCInst Inst = B.decode(I);
  return Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg() &&
         Inst.getOperand(0).getReg() == B.decoder().reg("r11");
}

/// Whether the instruction after I may run right after it.
static bool fallsThrough(const Binary &B, const Insn &I) {
  StringRef M = B.mnemonic(I);
  return !(M.starts_with("jmp") || M.starts_with("ret") || M == "ud2");
}

/// Whether I changes Reg (a 64-bit register), counting what a call may
/// clobber and what `syscall` does.
static bool writesRegister(const Binary &B, const Insn &I, MCRegister Reg) {
  const X86Decoder &D = B.decoder();
  std::string Name = D.registerName(Reg);
  if (B.isCall(I))
    return is_contained(CallClobbered, Name);
  if (B.mnemonic(I) == "syscall")
    return Name == "rcx" || Name == "r11";
  return D.writes(B.decode(I), Reg);
}

static std::string insnText(const Binary &B, const Insn &I) {
  auto [Mnemonic, Operands] = B.text(I);
  return StringRef(Mnemonic + " " + Operands).trim().str();
}

/// Every count in F (a `sarq` on the counter, or the call of the runtime's
/// shared check, which counts) must be matched by a call whose callee
/// returns through the counter's check. `call __rsb_count_call` counts the
/// call that entered an accounting entry, and belongs there only.
void Verifier::checkCounts(const Binary &B, const Function &F) {
  auto [First, Last] = B.code(*F.Start, F.End);
  for (size_t K = First; K != Last; ++K) {
    const Insn &I = B.Insns[K];
    std::optional<std::string> Why;
    if (isCount(B, I))
      Why = countedCall(B, F, K);
    else if (B.isCallTo(I, {SharedMarkCheck}))
      Why = sharedCheck(B, F, K);
    else if (B.isCallTo(I, {CountCall}))
      Why = "`" + insnText(B, I) + "` in instrumented function " + F.Name +
            ": the runtime's count of an entry in code optimised for size, "
            "outside an accounting entry, counts a call that is never made";
    if (Why)
      error(B, B.shown(I), B.symbol(I), *Why);
  }
}

/// Why the count at K may not be matched by a return through the counter's
/// check: it must come right before `call *%r11` and be reached only from
/// the mark check's `je` (counted indirect calls), or right before a call
/// through a table of instrumented functions.
std::optional<std::string>
Verifier::countedCall(const Binary &B, const Function &F, size_t K) const {
  std::string Count = "count `" + insnText(B, B.Insns[K]) +
                      "` in instrumented function " + F.Name;
  size_t Call = K + 1;
  bool LoadsR11 = false;
  while (Call < B.Insns.size() && B.previous(Call, *F.Start) &&
         B.Insns[Call].Address < F.End && mayFollowCount(B, B.Insns[Call])) {
    LoadsR11 |= B.mnemonic(B.Insns[Call]) == "movq";
    ++Call;
  }
  if (Call == B.Insns.size() || !B.previous(Call, *F.Start) ||
      B.Insns[Call].Address >= F.End || !B.isCall(B.Insns[Call]))
    return Count + " is not followed by a call: it counts a call that is "
                   "never made";
  for (size_t N = K + 1; N <= Call; ++N)
    if (!B.branchesTo(B.Insns[N].Address).empty())
      return Count + ": a branch lands between it and its call";
  std::optional<std::string> Mark;
  if (callsR11(B, B.Insns[Call]) && !LoadsR11) {
    Mark = markCounted(B, F, K);
    if (!Mark)
      return std::nullopt;
  }
  std::optional<std::string> Table = tableCall(B, F, Call);
  if (!Table)
    return std::nullopt;
  std::string Text = Count + " before `" + insnText(B, B.Insns[Call]) + "`";
  if (Mark)
    return Text + " is neither the mark check's (" + *Mark +
           ") nor before a call through a table of instrumented functions (" +
           *Table + ")";
  return Text +
         ": the call may reach code that returns without the "
         "counter's check (" +
         *Table + ")";
}

/// Why the count at K is not reached from the mark check's `je` alone:
/// another branch lands on it, or the code before it falls into it.
std::optional<std::string>
Verifier::markCounted(const Binary &B, const Function &F, size_t K) const {
  if (const Insn *Prev = B.previous(K, 0); Prev && fallsThrough(B, *Prev))
    return "the code before it falls into it";
  auto Sources = B.branchesTo(B.Insns[K].Address);
  if (Sources.empty())
    return "no branch goes to it";
  for (auto [Target, Source] : Sources)
    if (!endsMarkCheck(B, Source, F, "je"))
      return "`" + insnText(B, B.Insns[Source]) + "` at " +
             hex(B.shown(B.Insns[Source])) +
             " goes to it, and is not the last `je` of a whole mark check "
             "that no branch enters";
  if (Sources.size() > 1)
    return "more than one mark check goes to it";
  return std::nullopt;
}

/// Why the call of the runtime's shared check at K may count a call that
/// is not made: `je` must follow it and go to `call *%r11` (or the
/// retpoline's call), the only branch to that call, with no branch landing
/// on the `je` (ZF comes from the check).
std::optional<std::string>
Verifier::sharedCheck(const Binary &B, const Function &F, size_t K) const {
  std::string Check =
      "`call " + SharedMarkCheck.str() + "` in instrumented function " + F.Name;
  const Insn *Je = K + 1 < B.Insns.size() && B.previous(K + 1, *F.Start)
                       ? &B.Insns[K + 1]
                       : nullptr;
  if (!Je || B.mnemonic(*Je) != "je" || !Je->HasTarget)
    return Check + " is not followed by `je` to the call it counts";
  if (!B.branchesTo(Je->Address).empty())
    return Check + ": a branch lands on the `je` after it";
  std::optional<size_t> Call = B.insnAt(Je->Target);
  if (!Call || Je->Target < *F.Start || Je->Target >= F.End ||
      !callsR11(B, B.Insns[*Call]))
    return Check + ": its `je` goes to " +
           (Call ? "`" + insnText(B, B.Insns[*Call]) + "`"
                 : hex(Je->Target - (Je->Address - B.shown(*Je)))) +
           ", not to `call *%r11`";
  const Insn *Prev = B.previous(*Call, 0);
  if (B.branchesTo(Je->Target).size() != 1 || (Prev && fallsThrough(B, *Prev)))
    return Check + ": the call it counts is reached other than through its "
                   "`je`";
  return std::nullopt;
}

/// Why the call at K may not go to an instrumented function's start: its
/// target must be a word loaded from a read-only table whose every word is
/// one (the index is assumed in bounds, as C requires), through `call
/// *table(,%i,8)`, `call *(%base,%i,8)` with %base set to the table's
/// address (`leaq table(%rip)`, or `movl $table` in a non-PIE executable),
/// or `movq` of such a word into the register called (%r11 for the
/// retpoline) on every path to the call.
std::optional<std::string>
Verifier::tableCall(const Binary &B, const Function &F, size_t K) const {
  const X86Decoder &D = B.decoder();
  MCInst Call = B.decode(B.Insns[K]);
  MCRegister Target;
  if (const Label *L = B.label(B.Insns[K]); L && L->stem() == RetpolineR11)
    Target = D.reg("r11");
  else if (Call.getNumOperands() == 1 && Call.getOperand(0).isReg())
    Target = D.fullRegister(Call.getOperand(0).getReg());
  else if (!D.memory(Call))
    return std::string("a direct call, which an accounting entry would "
                       "count");
  SmallVector<size_t, 2> Loads;
  std::string Why;
  if (!Target)
    Loads.push_back(K);
  else if (!lastWrites(B, F, K, Target, Loads, Why))
    return Why;
  for (size_t L : Loads) {
    const Insn &Load = B.Insns[L];
    MCInst Inst = B.decode(Load);
    auto Memory = D.memory(Inst);
    bool Word = L == K || (B.mnemonic(Load) == "movq" && D.memoryFirst(Inst) &&
                           D.lastRegister(Inst) == Target);
    if (!Word || !Memory || Memory->Segment ||
        (Memory->Index && Memory->Scale != 8))
      return "the target comes from `" + insnText(B, Load) + "` at " +
             hex(B.shown(Load)) + ", not from a word of a table";
    SmallVector<uint64_t, 2> Tables;
    if (!Memory->Base || Memory->Base == D.reg("rip")) {
      std::optional<uint64_t> Address = B.operandAddress(Load);
      if (!Address)
        return "the table that `" + insnText(B, Load) + "` reads is not known";
      Tables.push_back(*Address);
    } else {
      SmallVector<size_t, 2> Sets;
      MCRegister Base = Memory->Base;
      if (!lastWrites(B, F, L, Base, Sets, Why))
        return Why;
      for (size_t S : Sets) {
        const Insn &Set = B.Insns[S];
        MCInst SetInst = B.decode(Set);
        auto Named = D.memory(SetInst);
        bool Address =
            D.fullRegister(D.lastRegister(SetInst)) == Base &&
            ((B.mnemonic(Set).starts_with("lea") && Named && !Named->Index) ||
             (B.mnemonic(Set).starts_with("mov") && !Named &&
              D.firstImmediate(SetInst)));
        std::optional<uint64_t> Table =
            Address ? B.operandAddress(Set) : std::nullopt;
        if (!Table)
          return "%" + D.registerName(Base) + " comes from `" +
                 insnText(B, Set) + "` at " + hex(B.shown(Set)) +
                 ", not from the address of a table";
        Tables.push_back(*Table + Memory->Disp);
      }
    }
    for (uint64_t Table : Tables)
      if (std::optional<std::string> Why = tableHolds(B, Table))
        return Why;
  }
  return std::nullopt;
}

/// Why the table at Address may hold something other than instrumented
/// functions' starts: no data symbol holds Address, the program may write
/// it, or one of its words is not such a start or not fixed by the file.
std::optional<std::string> Verifier::tableHolds(const Binary &B,
                                                uint64_t Address) const {
  const Symbol *Table = B.objectAt(Address);
  if (!Table)
    return "no data symbol holds the table at " + hex(Address);
  StringRef Name = Table->Name;
  if (!B.readOnly(*Table))
    return "table " + Name.str() + " is writable";
  if (Table->Size % 8 || (Address - Table->Address) % 8)
    return "table " + Name.str() + " is not made of aligned 8-byte words";
  for (uint64_t Offset = 0; Offset != Table->Size; Offset += 8) {
    std::string Word = Name.str() + "+" + hex(Offset);
    std::optional<uint64_t> Value = B.wordAt(*Table, Offset);
    if (!Value)
      return Word + " holds no address that the file fixes";
    if (!B.Starts.count(*Value)) {
      std::optional<rsbverify::Label> There = B.functionAt(*Value);
      return Word + " holds " + (There ? There->text() : hex(*Value)) +
             ", not the start of an instrumented function";
    }
  }
  return std::nullopt;
}

/// Collects in Writes the instructions of F that last write Reg on each
/// path to instruction K. False, with Why, when a path starts at F's start
/// or outside F without writing Reg. A jump of F through a register or
/// memory (a switch's table, a computed goto) comes before the instructions
/// its table names or, unread (or with Anywhere), before every instruction.
bool Verifier::lastWrites(const Binary &B, const Function &F, size_t K,
                          MCRegister Reg, SmallVectorImpl<size_t> &Writes,
                          std::string &Why, bool Anywhere) const {
  const LocalJumps &Jumps = jumpsWithin(B, F);
  ArrayRef<size_t> Always = Anywhere ? Jumps.All : Jumps.Unread;
  std::string Name = "%" + B.decoder().registerName(Reg);
  SmallVector<size_t, 16> Work;
  DenseSet<size_t> Seen;
  // Queues the instructions that may run right before P.
  auto Before = [&](size_t P) {
    const Insn &I = B.Insns[P];
    if (I.Address == *F.Start) {
      Why = Name + " may still hold the value " + F.Name + " was called with";
      return false;
    }
    if (const Insn *Prev = B.previous(P, *F.Start);
        Prev && fallsThrough(B, *Prev))
      Work.push_back(P - 1);
    for (auto [Target, Source] : B.branchesTo(I.Address)) {
      const Insn &From = B.Insns[Source];
      if (From.Address < *F.Start || From.Address >= F.End) {
        Why = "a branch from " + B.symbol(From).str() + " at " +
              hex(B.shown(From)) + " lands on the path that sets " + Name;
        return false;
      }
      Work.push_back(Source);
    }
    Work.append(Always.begin(), Always.end());
    if (auto Into = Jumps.Into.find(P); !Anywhere && Into != Jumps.Into.end())
      Work.append(Into->second.begin(), Into->second.end());
    return true;
  };
  if (!Before(K))
    return false;
  while (!Work.empty()) {
    size_t P = Work.pop_back_val();
    if (!Seen.insert(P).second)
      continue;
    const Insn &I = B.Insns[P];
    if (I.Kind != InsnKind::Code) {
      Why = "undecoded bytes at " + hex(B.shown(I)) + " come before it";
      return false;
    }
    if (writesRegister(B, I, Reg))
      Writes.push_back(P);
    else if (!Before(P))
      return false;
  }
  return true;
}

/// F's jumps within itself through a register or memory (its indirect
/// jumps other than the tail calls after the accounting helpers or the
/// mark check), and where each goes when its table can be read.
const Verifier::LocalJumps &Verifier::jumpsWithin(const Binary &B,
                                                  const Function &F) const {
  auto [It, New] = IndirectJumps.try_emplace(&F);
  LocalJumps &Jumps = It->second;
  if (!New)
    return Jumps;
  const X86Decoder &D = B.decoder();
  auto [First, Last] = B.code(*F.Start, F.End);
  for (size_t K = First; K != Last; ++K) {
    const Insn &I = B.Insns[K];
    if (!B.isJump(I) || !D.isIndirectBranch(I.Opcode) || accounted(B, K, F))
      continue;
    MCInst Inst = B.decode(I);
    if (!(Inst.getNumOperands() == 1 && Inst.getOperand(0).isReg() &&
          Inst.getOperand(0).getReg() == D.reg("r11") &&
          afterMarkCheck(B, K, F)))
      Jumps.All.push_back(K);
  }
  // Reading a table may follow a register back past these jumps, taken to
  // go anywhere meanwhile.
  for (size_t J : Jumps.All) {
    SmallVector<size_t, 8> Targets;
    if (!jumpTargets(B, F, J, Targets)) {
      Jumps.Unread.push_back(J);
      continue;
    }
    for (size_t Target : Targets)
      Jumps.Into[Target].push_back(J);
  }
  return Jumps;
}

/// Where the jump at J goes, read from its table, for a switch's dispatch:
/// `jmp *T(,%i,8)` (a non-PIE table of addresses), `movslq
/// (%base,%i,4), %e; addq` of %e and %base into the register jumped
/// through, with %base set to `leaq T(%rip)` (right before, or on every
/// path: a PIC table of offsets from T), or `movq T(,%i,8), %r; jmp *%r`.
bool Verifier::jumpTargets(const Binary &B, const Function &F, size_t J,
                           SmallVectorImpl<size_t> &Targets) const {
  const X86Decoder &D = B.decoder();
  MCInst Jump = B.decode(B.Insns[J]);
  std::optional<uint64_t> Table;
  unsigned Size = 8;
  if (auto Memory = D.memory(Jump)) {
    if (!Memory->Base && Memory->Index && Memory->Scale == 8)
      Table = B.operandAddress(B.Insns[J]);
  } else if (Jump.getNumOperands() == 1 && Jump.getOperand(0).isReg()) {
    MCRegister Reg = Jump.getOperand(0).getReg();
    const Insn *Add = B.previous(J, *F.Start);
    // `movq T(,%i,8), %r; jmp *%r` (-O0).
    if (MCInst Word = Add ? B.decode(*Add) : MCInst();
        Add && B.mnemonic(*Add) == "movq" && D.lastRegister(Word) == Reg &&
        D.memoryFirst(Word) && !landsIn(B, F, Add->End, Add->End)) {
      auto Memory = D.memory(Word);
      std::optional<uint64_t> Words =
          !Memory->Base && Memory->Index && Memory->Scale == 8
              ? B.operandAddress(*Add)
              : std::nullopt;
      return Words && readJumpTable(B, F, *Words, 8, Targets);
    }
    const Insn *Load = Add ? B.previous(J - 1, *F.Start) : nullptr;
    if (!Load || B.mnemonic(*Add) != "addq" || B.mnemonic(*Load) != "movslq" ||
        landsIn(B, F, Add->Address, B.Insns[J].Address))
      return false;
    MCInst AddInst = B.decode(*Add), LoadInst = B.decode(*Load);
    auto Entry = D.memory(LoadInst);
    MCRegister Other = D.firstRegister(AddInst),
               Loaded = D.lastRegister(LoadInst);
    if (D.lastRegister(AddInst) != Reg || !Entry || Entry->Segment ||
        Entry->Disp || !Entry->Index || Entry->Scale != 4 ||
        !((Loaded == Reg && Entry->Base == Other) ||
          (Loaded == Other && Entry->Base == Reg)))
      return false;
    // The table's address: right before the load, or on every path to it.
    SmallVector<size_t, 2> Sets;
    std::string Why;
    const Insn *Lea = B.previous(J - 2, *F.Start);
    if (Lea && writesRegister(B, *Lea, Entry->Base) &&
        !landsIn(B, F, Load->Address, Load->Address))
      Sets.push_back(J - 3);
    else if (!lastWrites(B, F, J - 2, Entry->Base, Sets, Why,
                         /*Anywhere=*/true))
      return false;
    for (size_t S : Sets) {
      const Insn &Set = B.Insns[S];
      auto Named = D.memory(B.decode(Set));
      std::optional<uint64_t> Address =
          B.mnemonic(Set) == "leaq" && Named && !Named->Index
              ? B.operandAddress(Set)
              : std::nullopt;
      if (!Address || (Table && *Table != *Address))
        return false;
      Table = Address;
    }
    Size = 4;
  }
  return Table && readJumpTable(B, F, *Table, Size, Targets);
}

/// Reads the jump table at Table, of 8-byte addresses or 4-byte offsets
/// from Table, from its start up to the first entry that goes to no
/// instruction of F (one in a part split off from F is passed over).
bool Verifier::readJumpTable(const Binary &B, const Function &F, uint64_t Table,
                             unsigned Size,
                             SmallVectorImpl<size_t> &Targets) const {
  const Section *Holder = B.sectionAt(Table);
  if (!Holder)
    return false;
  for (uint64_t Entry = Table;; Entry += Size) {
    std::optional<uint64_t> Target =
        B.codeAddressAt(*Holder, Entry, Size, Table);
    if (!Target)
      break;
    if (*Target < *F.Start || *Target >= F.End) {
      std::optional<rsbverify::Label> Part = B.functionAt(*Target);
      if (Part && B.partOf(Part->Name) == StringRef(F.Name))
        continue;
      break;
    }
    std::optional<size_t> K = B.insnAt(*Target);
    if (!K)
      break;
    Targets.push_back(*K);
  }
  return !Targets.empty();
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
/// with no credit left). A jump anywhere else, an entry included, could
/// over-count.
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

/// Appends to Parts the code of B's instrumented functions in sections of
/// their own (f.cold, f.__part.N: machine function splitting, basic-block
/// sections), each as a Function named for its owner: its exits and counts
/// are held to the owner's rules.
static void addSplitOffParts(const Binary &B, std::deque<Function> &Parts) {
  std::set<std::pair<StringRef, uint64_t>> Seen;
  for (const auto &[Index, Table] : B.Tables)
    for (const Symbol &S : Table) {
      // Basic-block sections leave their parts untyped (NOTYPE).
      if (!S.defined() || !S.Size ||
          !(S.isFunction() || S.Type == ELF::STT_NOTYPE) ||
          !B.Sections[S.SectionIndex].executable() ||
          !Seen.insert({S.Name, S.Address}).second)
        continue;
      if (std::optional<StringRef> Owner = B.partOf(S.Name))
        Parts.push_back(
            {Owner->str(), nullptr, S.Address, S.Address + S.Size, {}, false});
    }
}

Findings Verifier::run() {
  for (const auto &B : Inputs) {
    checkInputs(*B);
    checkDefined(*B);
    for (const Problem &P : B->Problems)
      error(*B, P.Shown, P.Symbol, P.Message);
    for (const Function &F : B->Functions)
      if (F.Start) {
        checkExits(*B, F);
        checkCounts(*B, F);
      }
    size_t FirstPart = Parts.size();
    addSplitOffParts(*B, Parts);
    for (size_t N = FirstPart; N != Parts.size(); ++N) {
      checkExits(*B, Parts[N]);
      checkCounts(*B, Parts[N]);
    }
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
