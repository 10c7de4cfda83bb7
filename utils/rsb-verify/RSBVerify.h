//===- RSBVerify.h - rsb-verify's view of a binary --------------*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// rsb-verify reads each input once through LLVM's Object library and decodes
// its executable sections with LLVM's MC disassembler, cut where
// `llvm-objdump -d` cuts them: at every symbol, each piece decoded from its
// start, every branch named after the symbol objdump would show. The
// checks then look at decoded instructions (opcodes, operands, targets)
// and symbol tables, never at a disassembler's text: text is only printed
// into messages.
//
//  - X86Decoder.cpp: the MC objects, the mnemonics and the operand forms
//    the checks name;
//  - Binary.cpp: one input's sections, symbols, relocations and
//    instructions, and the lookups on them;
//  - Functions.cpp: the instrumented functions, found from their entries;
//  - Checks.cpp: the checks (utils/rsb-verify/rsb-verify.cpp lists them);
//  - Sizes.cpp: --sizes, the bytes each kind of accounting sequence takes.
//
//===----------------------------------------------------------------------===//

#ifndef RSBVERIFY_RSBVERIFY_H
#define RSBVERIFY_RSBVERIFY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/MC/MCRegister.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace llvm {
class MCAsmInfo;
class MCContext;
class MCDisassembler;
class MCInstPrinter;
class MCInstrAnalysis;
class MCInstrDesc;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class raw_ostream;
} // namespace llvm

namespace rsbverify {

// The runtime's names the checks know (runtime/rsb_thunks.S).
inline constexpr llvm::StringLiteral EntryPrefix = "__rsb_entry.";
inline constexpr llvm::StringLiteral TailPrefix = "__rsb_tail.";
inline constexpr llvm::StringLiteral BodyPrefix = "__rsb_body.";
inline constexpr llvm::StringLiteral ResetDepth = "__rsb_reset_depth";
inline constexpr llvm::StringLiteral TailAccount = "__rsb_tail_account";
inline constexpr llvm::StringLiteral TailAccountFlags =
    "__rsb_tail_account_flags";
inline constexpr llvm::StringLiteral ReturnThunk = "__rsb_return_thunk";
inline constexpr llvm::StringLiteral RefillReturn = "__rsb_refill_return";
inline constexpr llvm::StringLiteral PrefixMark = "__rsb_prefix_mark";
inline constexpr llvm::StringLiteral SharedMarkCheck = "__rsb_count_marked_r11";
inline constexpr llvm::StringLiteral SharedIndirectCall = "__rsb_icall_r11";
inline constexpr llvm::StringLiteral CountCall = "__rsb_count_call";
// -mretpoline's thunk that calls the target in %r11 (LLVM's).
inline constexpr llvm::StringLiteral RetpolineR11 = "__llvm_retpoline_r11";

/// A memory operand: segment:disp(base, index, scale).
struct MemoryOperand {
  llvm::MCRegister Base, Index, Segment;
  int64_t Scale = 1, Disp = 0;
};

/// The MC objects that decode, analyse and print x86-64 code, made once.
class X86Decoder {
public:
  static llvm::Expected<std::unique_ptr<X86Decoder>> create();
  ~X86Decoder();

  /// Decodes one instruction at Address; Size is set to the bytes it
  /// takes, or to those objdump skips when they are no instruction.
  bool decode(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
              llvm::MCInst &Inst, uint64_t &Size) const;
  /// Where a relative branch (or xbegin) goes.
  std::optional<uint64_t> branchTarget(const llvm::MCInst &Inst,
                                       uint64_t Address, uint64_t Size) const;
  /// The address a %rip-relative memory operand names.
  std::optional<uint64_t> memoryTarget(const llvm::MCInst &Inst,
                                       uint64_t Address, uint64_t Size) const;
  /// The mnemonic objdump prints for the opcode, without prefixes; a
  /// conditional jump's with its condition (`je`), setcc's and cmovcc's
  /// without (`set`, `cmov`).
  llvm::StringRef mnemonic(unsigned Opcode, unsigned Condition) const;
  /// The condition of a conditional jump (its mnemonic is `j` + this).
  std::optional<unsigned> condition(const llvm::MCInst &Inst) const;
  /// The mnemonic and operands as objdump prints them (AT&T, immediates in
  /// hex, a branch target as its address), without prefixes and comments.
  std::pair<std::string, std::string> print(const llvm::MCInst &Inst,
                                            uint64_t Address) const;

  /// The instruction's first memory operand.
  std::optional<MemoryOperand> memory(const llvm::MCInst &Inst) const;
  /// The register AT&T prints last (the destination), if it is one.
  llvm::MCRegister lastRegister(const llvm::MCInst &Inst) const;
  /// The operand AT&T prints first (the source), if it is an immediate.
  std::optional<int64_t> firstImmediate(const llvm::MCInst &Inst) const;
  /// The operand AT&T prints first, if it is a register.
  llvm::MCRegister firstRegister(const llvm::MCInst &Inst) const;
  /// Whether AT&T prints a memory operand first (the source).
  bool memoryFirst(const llvm::MCInst &Inst) const;
  /// Immediates that AT&T prints as `$...`.
  llvm::SmallVector<int64_t, 2> immediates(const llvm::MCInst &Inst) const;
  /// The 64-bit register that a 32-bit one is the low half of.
  llvm::MCRegister fullRegister(llvm::MCRegister Reg) const;
  /// The register's name as AT&T prints it, without `%`.
  std::string registerName(llvm::MCRegister Reg) const;
  llvm::MCRegister reg(llvm::StringRef Name) const;
  bool isIndirectBranch(unsigned Opcode) const;
  /// Whether the instruction writes Reg or a part of it (explicitly or
  /// implicitly; a call's clobbers are not part of its description).
  bool writes(const llvm::MCInst &Inst, llvm::MCRegister Reg) const;
  const llvm::MCSubtargetInfo &subtarget() const { return *SubtargetInfo; }

private:
  X86Decoder() = default;
  unsigned memoryOperandIndex(const llvm::MCInst &Inst) const;

  std::unique_ptr<llvm::MCRegisterInfo> RegInfo;
  std::unique_ptr<llvm::MCAsmInfo> AsmInfo;
  std::unique_ptr<llvm::MCSubtargetInfo> SubtargetInfo;
  std::unique_ptr<llvm::MCInstrInfo> InstrInfo;
  std::unique_ptr<llvm::MCContext> Context;
  std::unique_ptr<llvm::MCDisassembler> Disassembler;
  std::unique_ptr<llvm::MCInstrAnalysis> Analysis;
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  std::vector<std::string> Mnemonics; // by opcode
  llvm::StringMap<llvm::MCRegister> Registers;
  llvm::DenseMap<unsigned, llvm::MCRegister> FullRegisters;
};

struct Section {
  unsigned Index;
  llvm::StringRef Name;
  uint32_t Type;
  uint64_t Flags, Address, Offset, Size;
  bool executable() const;
  bool allocated() const;
};

struct Symbol {
  llvm::StringRef Name; // without a version (`@...`)
  uint64_t Value, Size;
  uint8_t Type, Binding;
  unsigned SectionIndex; // 0: undefined, absolute or common
  bool Undefined;        // SHN_UNDEF
  uint64_t Address;      // in the checks' address space, when defined
  bool defined() const { return SectionIndex != 0; }
  bool isFunction() const;
};

/// A symbol as objdump lists them: to cut code at, and to name addresses.
struct DisplaySymbol {
  uint64_t Address; // as the file says (section-relative in an object)
  llvm::StringRef Name;
  uint8_t Type;
  bool operator<(const DisplaySymbol &Other) const {
    return std::tie(Address, Name, Type) <
           std::tie(Other.Address, Other.Name, Other.Type);
  }
};

/// Where a branch goes by name: objdump's `<name+0x8>`, or a relocation's
/// symbol.
struct Label {
  llvm::StringRef Name;
  uint64_t Offset = 0;
  std::string text() const;
  /// The name before any `@` (`puts` for `puts@plt`), as the checks
  /// compare callees.
  llvm::StringRef stem() const;
};

enum class InsnKind : uint8_t {
  Code,
  Unknown, // bytes that decode to no instruction
  Data,    // bytes after a function's size, or of a data symbol
};

/// One decoded instruction (or piece of data), small: a big binary has
/// millions. Binary::shown, ::symbol and ::label give the rest.
struct Insn {
  uint64_t Address; // in the checks' address space
  uint64_t End;     // where the next instruction of its section starts
  uint64_t Target;  // where a direct branch goes, when HasTarget
  uint32_t Symbol;  // the symbol objdump shows it under (Binary::symbol)
  uint32_t Branch;  // what it goes to by name (Binary::label), or NoLabel
  uint32_t SectionIndex;
  uint16_t Opcode;
  uint8_t Size;
  uint8_t Condition; // of a conditional jump
  InsnKind Kind;
  bool HasTarget;
  static constexpr uint32_t NoLabel = UINT32_MAX;
};

/// An instrumented function: its entry symbol and the code the entry
/// accounts for ([Start, End); no code when Start is unset).
struct Function {
  std::string Name;
  const Symbol *Entry;
  std::optional<uint64_t> Start;
  uint64_t End = 0;
  mutable std::vector<uint64_t> Targets; // of f's branches, on demand
  mutable bool HasTargets = false;
};

/// A problem found while reading the entries: (shown address, symbol,
/// message).
struct Problem {
  uint64_t Shown;
  std::string Symbol;
  std::string Message;
};

/// One input: its sections, symbol tables, relocations (relocatable
/// objects), instructions, and its instrumented functions.
class Binary {
public:
  static llvm::Expected<std::unique_ptr<Binary>> read(llvm::StringRef Path,
                                                      const X86Decoder &D);

  std::string Path;
  uint16_t Type;
  bool linked() const;
  /// A program that runs without the dynamic linker: no PT_INTERP, and
  /// not a shared library (a static PIE carries DF_1_PIE).
  bool isStatic() const { return Static; }
  /// Whether the program starts in the runtime's `__rsb_start`, which gives
  /// a static program its thread pointer before the C library runs the
  /// resolvers (rsb-ld links every static executable so).
  bool startsInRuntime() const;

  std::vector<Section> Sections;
  /// Symbol tables (.dynsym, .symtab) by section index, with each symbol
  /// at its index in the table (the null symbol first).
  std::map<unsigned, std::vector<Symbol>> Tables;
  /// Defined function symbols by address and by name, each once. (Maps by
  /// address are std's: any 64-bit value may be a branch's target.)
  std::unordered_map<uint64_t, llvm::SmallVector<const Symbol *, 2>> At;
  llvm::StringMap<llvm::SmallVector<const Symbol *, 1>> ByName;
  /// Relocatable objects: (section index, offset) -> (symbol, addend).
  std::map<std::pair<unsigned, uint64_t>, std::pair<const Symbol *, int64_t>>
      Relocations;
  std::vector<Insn> Insns; // by address
  /// IFUNC resolvers' addresses, sorted: plain code on purpose (they run
  /// once, maybe before there is a thread pointer).
  std::vector<uint64_t> Resolvers;

  // The instrumented functions (Functions.cpp).
  std::vector<Function> Functions;
  std::vector<std::string> Elided;
  std::vector<Problem> Problems;
  std::unordered_map<uint64_t, const Function *> Starts, Entries;
  std::vector<const Function *> Bodies;      // by start
  std::vector<const Function *> EntryRanges; // by entry address
  llvm::StringSet<> Names, Exported;
  /// The counter as the entries address it with a constant offset from %fs
  /// (counterOffset()): a `sar $5` on another such offset shifts a
  /// thread-local variable of the program, not the counter.
  llvm::StringSet<> CounterOffsets;
  /// The key of CounterOffsets for a `sar`'s operand: `%fs:` plus its
  /// displacement and, in an object, the symbol it is relocated against;
  /// none when a register takes part in the address.
  std::optional<std::string> counterOffset(const Insn &I) const;
  llvm::StringSet<> ResolverNames; // resolverNames()

  /// The instruction's address as objdump shows it (section-relative in a
  /// relocatable object).
  uint64_t shown(const Insn &I) const;
  /// The symbol objdump shows the instruction under.
  llvm::StringRef symbol(const Insn &I) const { return ShownUnder[I.Symbol]; }
  /// What a branch goes to by name, if known.
  const Label *label(const Insn &I) const {
    return I.Branch == Insn::NoLabel ? nullptr : &Labels[I.Branch];
  }
  /// Decodes an instruction again, for its operands.
  llvm::MCInst decode(const Insn &I) const;
  /// The instruction's text as objdump prints it: mnemonic and operands,
  /// without objdump's comments, the branch target's name included.
  std::pair<std::string, std::string> text(const Insn &I) const;
  llvm::StringRef mnemonic(const Insn &I) const;
  bool isJump(const Insn &I) const;
  bool isCall(const Insn &I) const;
  bool isCallTo(const Insn &I, llvm::ArrayRef<llvm::StringRef> Names) const;
  /// Whether instruction K starts rsb-ld's fallback frame.
  bool isFallbackFrame(size_t K) const;
  /// `lea Disp(%rsp), %rsp`.
  bool isStackLea(const Insn &I, int64_t Disp) const;
  /// `sar $5` on an %fs: operand: the counter's shift in every form.
  bool isFsShiftBy5(const Insn &I) const;
  const X86Decoder &decoder() const { return D; }

  /// The index of the instruction at Address.
  std::optional<size_t> insnAt(uint64_t Address) const;
  /// The indices of the instructions in [Start, End).
  std::pair<size_t, size_t> code(uint64_t Start, uint64_t End) const;
  /// The instruction that falls through into instruction K, if it starts
  /// at or after Floor.
  const Insn *previous(size_t K, uint64_t Floor) const;
  const Symbol *namedAt(uint64_t Address,
                        llvm::ArrayRef<llvm::StringRef> Names) const;
  /// The instrumented function whose code holds Address.
  const Function *bodyOf(uint64_t Address) const;
  /// The instrumented function whose accounting entry holds Address.
  const Function *entryOf(uint64_t Address) const;
  bool isResolver(uint64_t Address) const;
  /// Whether every function symbol named Name is an IFUNC symbol or a
  /// resolver: code that is not instrumented on purpose.
  bool onlyResolvers(llvm::StringRef Name) const;
  /// The names of the resolvers that have no accounting entry.
  std::vector<llvm::StringRef> resolverNames() const;
  /// The instrumented function that Symbol (f.cold, f.part.0) was split
  /// off from.
  std::optional<llvm::StringRef> partOf(llvm::StringRef Symbol) const;
  /// The function symbol whose code holds Address.
  std::optional<Label> functionAt(uint64_t Address) const;
  /// What objdump names Target with, in code of the section: the nearest
  /// symbol at or below it.
  std::optional<Label> labelAt(uint64_t Target, unsigned SectionIndex) const;
  bool instrumentedCode(const Insn &I) const;
  /// The direct branches and calls that go to Address: (Address, the
  /// branch's index).
  llvm::ArrayRef<std::pair<uint64_t, size_t>>
  branchesTo(uint64_t Address) const;
  /// The address named by the instruction's %rip-relative or absolute
  /// memory operand, or by its immediate, as it is when the program runs
  /// (in an object, where its relocation says; not a preemptible or weak
  /// symbol's).
  std::optional<uint64_t> operandAddress(const Insn &I) const;
  /// The data symbol whose bytes hold Address.
  const Symbol *objectAt(uint64_t Address) const;
  /// Whether the program cannot write the symbol's bytes: a section without
  /// SHF_WRITE, or .data.rel.ro (read-only once relocated).
  bool readOnly(const Symbol &S) const;
  /// The address the 8-byte word at Offset in the data symbol holds when
  /// the program runs, if the file fixes it: a relocation to a symbol that
  /// is neither weak nor preemptible, a relative dynamic relocation, or a
  /// non-PIE executable's bytes.
  std::optional<uint64_t> wordAt(const Symbol &S, uint64_t Offset) const;
  /// The same for the Size bytes at Address in the section: an 8-byte
  /// word, or a 4-byte offset from From (a jump table's entry).
  std::optional<uint64_t> codeAddressAt(const Section &Holder, uint64_t Address,
                                        unsigned Size, uint64_t From) const;
  /// The allocated section whose bytes hold Address.
  const Section *sectionAt(uint64_t Address) const;
  /// Whether the program stores an address after Start and before End
  /// (computed goto labels, jump tables of absolute addresses; the start of
  /// a function is stored by any pointer to it).
  bool takesAddressIn(uint64_t Start, uint64_t End) const;

private:
  Binary(const X86Decoder &D) : D(D), Saver(Allocator) {}
  llvm::Error readSections();
  llvm::Error readSymbols();
  llvm::Error readRelocations();
  void readResolvers();
  void readProgramKind();
  llvm::Error readCode();
  uint64_t base(unsigned SectionIndex) const;
  class Disassembly;
  void resolveRelocation(Insn &I);
  uint32_t addLabel(const Label &L);

  const X86Decoder &D;
  bool Static = false;
  llvm::object::OwningBinary<llvm::object::ObjectFile> File;
  const llvm::object::ELF64LEObjectFile *Object = nullptr;
  llvm::BumpPtrAllocator Allocator;
  llvm::StringSaver Saver;
  /// objdump's symbols: by section, sorted; those of no section; sections
  /// by address (to name a branch target).
  std::map<unsigned, std::vector<DisplaySymbol>> DisplaySymbols;
  std::vector<DisplaySymbol> AbsoluteSymbols;
  std::vector<llvm::StringRef> ShownUnder; // by Insn::Symbol
  std::vector<Label> Labels;               // by Insn::Branch
  std::vector<std::pair<uint64_t, unsigned>> SectionsByAddress;
  /// Addresses the code names (%rip-relative operands, and in an
  /// executable its immediates) and, from the data, the relocations or
  /// words that may hold a code address; sorted on first use.
  mutable std::vector<uint64_t> Taken;
  mutable bool TakenSorted = false;
  mutable std::vector<std::tuple<uint64_t, uint64_t, llvm::StringRef>>
      SymbolRanges;
  void collectTaken() const;
  mutable std::vector<std::pair<uint64_t, size_t>> Sources; // branchesTo
  mutable bool HasSources = false;
  mutable std::vector<const Symbol *> Objects; // objectAt, by address
  mutable bool HasObjects = false;
  /// A linked file's dynamic relocations by offset: (type, symbol index,
  /// addend).
  mutable std::unordered_map<uint64_t, std::tuple<uint32_t, uint32_t, int64_t>>
      DynamicRelocations;
  mutable bool HasDynamicRelocations = false;
  /// The words that packed relative relocations (SHT_RELR) relocate.
  mutable llvm::DenseSet<uint64_t> RelativeWords;
};

/// The file's path with every symbolic link resolved (the path itself when
/// that fails): how inputs are compared.
std::string realPath(llvm::StringRef Path);

/// Finds the instrumented and elided functions of B from its entries.
void findFunctions(Binary &B);

/// What the checks found: one line per violation, and one per note (code
/// that is safe but that the pass does not emit).
struct Findings {
  std::vector<std::string> Violations, Notes;
};

/// The checks over all inputs.
Findings verify(llvm::ArrayRef<std::unique_ptr<Binary>> Inputs,
                const llvm::StringSet<> &Allowed,
                const llvm::StringSet<> &Required);

/// `--sizes`: the sequences of each kind in B and their bytes (Sizes.cpp).
void printSizes(const Binary &B, llvm::raw_ostream &OS);

} // namespace rsbverify

#endif // RSBVERIFY_RSBVERIFY_H
