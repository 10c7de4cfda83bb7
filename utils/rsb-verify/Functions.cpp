//===- Functions.cpp - Finding the instrumented functions -----------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Instrumented functions are found by their entries, not by their names: a
// symbol `__rsb_entry.f` whose code is the accounting sequence (`sarq $5` on
// the %fs counter, optionally after `endbr64` and the %r11 load of the
// initial-exec form, and the `incq` of the statistics build). Two shapes:
//
//   in front     the entry ends where f's code starts and falls through
//                into it (f keeps the plain build's alignment, which is
//                none at -Os: alignment is no part of the accounting);
//   out of line  the entry (in .text.rsb_call_thunks, for functions with
//                data before their start) ends with `jmp` to f's start.
//
// f's code starts at `f`, or, for weak and inline functions, at the local
// zero-sized marker `__rsb_body.f` and runs to the next symbol. That matters
// in mixed C++ links, where the symbol f may resolve to a copy of an inline
// function from an object built without rsb-stuff while the entry, the tail
// stub and the marker stay with the instrumented copy. The tail alias
// `__rsb_tail.f` is a stub of its own, `[endbr64] jmp f`. An entry that is
// `f` itself marks a function whose accounting was elided (it returns with
// plain rets; so does the `__rsb_tail.f` stub `call __rsb_tail_account; jmp
// __rsb_entry.f` of an elided inline function whose name went elsewhere).
// An entry that starts with `jmp` or `call __rsb_reset_depth`, or is the
// frame `lea -8(%rsp),%rsp; call f; lea 8(%rsp),%rsp; jmp
// __rsb_reset_depth`, is rsb-ld's link-time fallback for a callee that is
// not instrumented.
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;
using namespace rsbverify;

namespace {
class FunctionFinder {
public:
  FunctionFinder(Binary &B) : B(B), D(B.decoder()) {}
  void classify(const Symbol &Entry, StringRef Name);

private:
  bool isElided(const Symbol &Entry, StringRef Name) const;
  void checkAccounting(const Function &F, size_t First, size_t Last);
  bool isAccounting(const Insn &I, size_t N, size_t Count, bool SavesR11) const;
  void problem(uint64_t Shown, StringRef Symbol, const Twine &Message) {
    B.Problems.push_back({Shown, Symbol.str(), Message.str()});
  }

  Binary &B;
  const X86Decoder &D;
};
} // namespace

void FunctionFinder::classify(const Symbol &Entry, StringRef Name) {
  std::optional<size_t> K = B.insnAt(Entry.Address);
  const Insn *First = K ? &B.Insns[*K] : nullptr;
  if (First && B.mnemonic(*First) == "endbr64" && *K + 1 < B.Insns.size())
    First = &B.Insns[*K + 1];
  if (First && (B.mnemonic(*First).starts_with("jmp") ||
                B.isCallTo(*First, {ResetDepth}) ||
                B.isFallbackFrame(First - B.Insns.data())))
    return; // rsb-ld's fallback: the callee is not instrumented
  if (isElided(Entry, Name)) {
    B.Elided.push_back(Name.str());
    return;
  }
  B.Functions.push_back({Name.str(), &Entry, std::nullopt, 0, {}, false});
  Function &F = B.Functions.back();
  auto [Begin, End] = B.code(Entry.Address, Entry.Address + Entry.Size);
  checkAccounting(F, Begin, End);
  std::string Marker = (BodyPrefix + Name).str();
  const Insn *Last = Begin != End ? &B.Insns[End - 1] : nullptr;
  uint64_t Start;
  const Symbol *Body;
  if (Last && B.mnemonic(*Last).starts_with("jmp") &&
      !D.isIndirectBranch(Last->Opcode)) {
    Start = Last->Target;
    Body = Last->HasTarget ? B.namedAt(Start, {Name, Marker}) : nullptr;
    if (!Body) {
      problem(Entry.Value, Entry.Name,
              "accounting entry jumps to " +
                  (B.label(*Last) ? B.label(*Last)->text() : "?") +
                  ", not to the start of " + Name);
      return;
    }
  } else {
    Start = Entry.Address + Entry.Size;
    Body = B.namedAt(Start, {Name, Marker});
    if (!Body) {
      problem(Entry.Value, Entry.Name,
              "accounting entry does not end at " + Name);
      return;
    }
  }
  // f's own symbol has its size; in a mixed C++ link f may name another
  // copy, and the code runs from the marker to the next symbol.
  F.Start = Start;
  if (const Symbol *Sized = B.namedAt(Start, {Name})) {
    F.End = Start + Sized->Size;
    return;
  }
  F.End = Start;
  for (std::optional<size_t> At = B.insnAt(Start); At && *At < B.Insns.size();
       ++*At) {
    const Insn &I = B.Insns[*At];
    if (I.Address != F.End || I.Kind != InsnKind::Code ||
        (I.Address != Start && B.At.count(I.Address)))
      break;
    F.End = I.End;
  }
}

/// A function whose call subtree fits the RSB's spare entries: its entry is
/// the function itself and it returns with plain rets. Its tail alias is
/// the stub `call __rsb_tail_account; jmp f`.
bool FunctionFinder::isElided(const Symbol &Entry, StringRef Name) const {
  if (B.namedAt(Entry.Address, {Name}))
    return true;
  auto Tails = B.ByName.find((TailPrefix + Name).str());
  if (Tails == B.ByName.end())
    return false;
  for (const Symbol *Tail : Tails->second) {
    std::optional<size_t> K = B.insnAt(Tail->Address);
    if (K && *K + 1 < B.Insns.size() &&
        B.isCallTo(B.Insns[*K], {TailAccount}) &&
        B.mnemonic(B.Insns[*K + 1]).starts_with("jmp") &&
        B.Insns[*K + 1].HasTarget && B.Insns[*K + 1].Target == Entry.Address)
      return true;
  }
  return false;
}

/// The entry holds the accounting sequence: endbr64 first, the %r11 load
/// of the initial-exec form (which the linker may relax to `movq $tpoff,
/// %r11` in an executable) (inside `pushq %r11; ...; popq %r11` where the
/// function's convention needs %r11 kept), `sarq $5` on the counter, the
/// statistics `incq`, and, out of line, a final `jmp`; or, in code optimised
/// for size, endbr64 and `call __rsb_count_call` (the runtime's `sarq`)
/// last.
void FunctionFinder::checkAccounting(const Function &F, size_t First,
                                     size_t Last) {
  SmallVector<StringRef, 8> Body;
  for (size_t K = First; K != Last; ++K) {
    StringRef M = B.mnemonic(B.Insns[K]);
    if (M != "endbr64" && M != "jmp" && M != "jmpq")
      Body.push_back(M);
  }
  bool SavesR11 =
      !Body.empty() && Body.front() == "pushq" && Body.back() == "popq";
  // Exactly one count: a second one counts a call that is never made.
  unsigned Counts = 0;
  auto Count = [&](const Insn &I) {
    if (++Counts > 1)
      problem(B.shown(I), F.Entry->Name,
              "second count in accounting entry: it counts the call twice");
  };
  for (size_t K = First; K != Last; ++K) {
    const Insn &I = B.Insns[K];
    if (K + 1 == Last && B.isCallTo(I, {CountCall})) {
      Count(I);
      continue;
    }
    if (B.isFsShiftBy5(I)) {
      Count(I);
      if (auto Offset = B.counterOffset(I))
        B.CounterOffsets.insert(*Offset);
      continue;
    }
    if (isAccounting(I, K - First, Last - First, SavesR11))
      continue;
    auto [Mnemonic, Operands] = B.text(I);
    problem(B.shown(I), F.Entry->Name,
            "unexpected `" + StringRef(Mnemonic + " " + Operands).trim() +
                "` in accounting entry");
  }
  if (!Counts)
    problem(F.Entry->Value, F.Entry->Name,
            "no `sarq $5, %fs:...` accounting instruction (nor `call " +
                CountCall + "`)");
}

/// Whether instruction N of an entry's Count is one the accounting
/// sequence may hold besides the shift.
bool FunctionFinder::isAccounting(const Insn &I, size_t N, size_t Count,
                                  bool SavesR11) const {
  if (I.Kind != InsnKind::Code)
    return false;
  StringRef M = B.mnemonic(I);
  if (M == "endbr64")
    return N == 0;
  if (M.starts_with("jmp"))
    return N == Count - 1 && !D.isIndirectBranch(I.Opcode);
  MCInst Inst = B.decode(I);
  auto Memory = D.memory(Inst);
  MCRegister R11 = D.reg("r11");
  if (M == "pushq" || M == "popq")
    return SavesR11 && Inst.getNumOperands() == 1 &&
           Inst.getOperand(0).isReg() && Inst.getOperand(0).getReg() == R11;
  if (M.starts_with("inc"))
    return Memory && Memory->Segment == D.reg("fs");
  if (!M.starts_with("mov") ||
      !StringRef(D.registerName(D.lastRegister(Inst))).starts_with("r11"))
    return false;
  // `movq tpoff(%rip), %r11`, or relaxed to local-exec: `movq $tpoff,
  // %r11`.
  return (D.memoryFirst(Inst) && Memory->Base == D.reg("rip") &&
          !Memory->Segment) ||
         D.firstImmediate(Inst).has_value();
}

void rsbverify::findFunctions(Binary &B) {
  FunctionFinder Finder(B);
  std::vector<std::pair<StringRef, const Symbol *>> Entries;
  for (const auto &Named : B.ByName)
    if (Named.getKey().starts_with(EntryPrefix))
      for (const Symbol *S : Named.getValue())
        Entries.push_back({Named.getKey(), S});
  // By name; symbols of one name in the order of their tables.
  llvm::stable_sort(
      Entries, [](const auto &L, const auto &R) { return L.first < R.first; });
  for (const auto &[Name, Entry] : Entries)
    Finder.classify(*Entry, Name.drop_front(EntryPrefix.size()));
  for (const Function &F : B.Functions) {
    if (F.Start)
      B.Starts[*F.Start] = &F;
    B.Entries[F.Entry->Address] = &F;
    B.Names.insert(F.Name);
    B.EntryRanges.push_back(&F);
    if (F.Start)
      B.Bodies.push_back(&F);
  }
  for (StringRef Name : B.resolverNames())
    B.ResolverNames.insert(Name);
  llvm::sort(B.EntryRanges, [](const Function *L, const Function *R) {
    return L->Entry->Address < R->Entry->Address;
  });
  llvm::stable_sort(B.Bodies, [](const Function *L, const Function *R) {
    return std::make_pair(*L->Start, L->End) <
           std::make_pair(*R->Start, R->End);
  });
}
