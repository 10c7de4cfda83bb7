//===- Binary.cpp - One input: symbols, relocations, instructions ---------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Reads an x86-64 ELF file with LLVM's Object library and decodes its code
// with the MC disassembler, cut and named as `llvm-objdump -d` shows it,
// because the checks were written against that view and its corner cases
// (a piece of code starts at every symbol; bytes past a function's size are
// data; runs of eight or more zero bytes are skipped; a branch is named
// after the nearest symbol at or before its target, the PLT's entries
// included).
//
// All checks work in one address space: a linked file's addresses; in a
// relocatable object, where every section starts at 0, each section placed
// at its file offset, which is unique ("shown" addresses stay as objdump
// shows them, for messages). There a branch to another section or to a
// global symbol goes where its relocation says, not where its still-zero
// displacement points.
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include "llvm/ADT/DenseSet.h"
#include <algorithm>

using namespace llvm;
using namespace rsbverify;

using ELFT = object::ELF64LE;
using ELFFile = object::ELFFile<ELFT>;
using ELFHeader = ELFT::Shdr;
using Elf_Rela = ELFT::Rela;

// objdump skips runs of at least this many zero bytes (in multiples of 4,
// so that an instruction starting with a zero byte is not cut).
static constexpr uint64_t SkippedZeroes = 8;
// objdump dumps a data symbol's bytes eight to a line.
static constexpr uint64_t DataLine = 8;

bool Section::executable() const { return Flags & ELF::SHF_EXECINSTR; }
bool Section::allocated() const { return Flags & ELF::SHF_ALLOC; }

bool Symbol::isFunction() const {
  return Type == ELF::STT_FUNC || Type == ELF::STT_GNU_IFUNC;
}

std::string Label::text() const {
  std::string Text = Name.str();
  if (Offset)
    Text += "+0x" + utohexstr(Offset, /*LowerCase=*/true);
  return Text;
}

StringRef Label::stem() const {
  // `name+0x10` keeps its offset unless the name has an `@`: only a call
  // to the start of a function is a call to it.
  if (Name.contains('@'))
    return Name.split('@').first;
  return Offset ? StringRef() : Name;
}

std::string rsbverify::realPath(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

static Error fileError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "rsb-verify: " + Path + ": " + Message);
}

Expected<std::unique_ptr<Binary>> Binary::read(StringRef Path,
                                               const X86Decoder &D) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return fileError(Path, Buffer.getError().message());
  if (identify_magic((*Buffer)->getBuffer()) == file_magic::archive)
    return fileError(Path, "an archive; extract its members (llvm-ar x) "
                           "and give those");
  auto Object =
      object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
  if (!Object)
    return fileError(Path, toString(Object.takeError()));
  auto *ELF = dyn_cast<object::ELF64LEObjectFile>(Object->get());
  if (!ELF || ELF->getELFFile().getHeader().e_machine != ELF::EM_X86_64)
    return fileError(Path, "not an x86-64 ELF file");
  std::unique_ptr<Binary> B(new Binary(D));
  B->Path = Path.str();
  B->Object = ELF;
  B->File = object::OwningBinary<object::ObjectFile>(std::move(*Object),
                                                     std::move(*Buffer));
  B->Type = ELF->getELFFile().getHeader().e_type;
  if (Error E = B->readSections())
    return std::move(E);
  if (Error E = B->readSymbols())
    return std::move(E);
  if (Error E = B->readRelocations())
    return std::move(E);
  B->readResolvers();
  B->readProgramKind();
  if (Error E = B->readCode())
    return std::move(E);
  return std::move(B);
}

bool Binary::linked() const {
  return Type == ELF::ET_EXEC || Type == ELF::ET_DYN;
}

uint64_t Binary::base(unsigned SectionIndex) const {
  if (linked() || SectionIndex == 0 || SectionIndex >= Sections.size())
    return 0;
  return Sections[SectionIndex].Offset;
}

Error Binary::readSections() {
  const ELFFile &EF = Object->getELFFile();
  auto Headers = EF.sections();
  if (!Headers)
    return fileError(Path, toString(Headers.takeError()));
  for (const auto &Header : *Headers) {
    Expected<StringRef> Name = EF.getSectionName(Header);
    Sections.push_back({static_cast<unsigned>(Sections.size()),
                        Name ? *Name : (consumeError(Name.takeError()), ""),
                        Header.sh_type, Header.sh_flags, Header.sh_addr,
                        Header.sh_offset, Header.sh_size});
  }
  return Error::success();
}

/// The section index of Symbol number Index of a table, through the
/// extended index table for SHN_XINDEX; 0 when it has none.
static unsigned sectionIndex(const ELFT::Sym &Symbol, unsigned Index,
                             ArrayRef<ELFT::Word> Extended,
                             size_t SectionCount) {
  unsigned Ndx = Symbol.st_shndx;
  if (Ndx == ELF::SHN_XINDEX)
    Ndx = Index < Extended.size() ? unsigned(Extended[Index]) : 0;
  else if (Ndx >= ELF::SHN_LORESERVE)
    Ndx = 0;
  return Ndx < SectionCount ? Ndx : 0;
}

/// The section indices of a symbol table's symbols that need more than 16
/// bits (SHT_SYMTAB_SHNDX), if it has them.
static ArrayRef<ELFT::Word> extendedIndices(const ELFFile &EF,
                                            unsigned TableIndex) {
  for (const auto &Header : cantFail(EF.sections())) {
    if (Header.sh_type != ELF::SHT_SYMTAB_SHNDX || Header.sh_link != TableIndex)
      continue;
    if (auto Table = EF.getSHNDXTable(Header))
      return *Table;
    else
      consumeError(Table.takeError());
  }
  return {};
}

Error Binary::readSymbols() {
  const ELFFile &EF = Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  // The dynamic table first, as the checks (and llvm-readelf) list them.
  std::vector<unsigned> Order;
  for (const Section &S : Sections)
    if (S.Type == ELF::SHT_DYNSYM)
      Order.push_back(S.Index);
  for (const Section &S : Sections)
    if (S.Type == ELF::SHT_SYMTAB)
      Order.push_back(S.Index);
  DenseSet<std::pair<StringRef, uint64_t>> Seen;
  for (unsigned TableIndex : Order) {
    const ELFT::Shdr &Header = Headers[TableIndex];
    auto Symbols = EF.symbols(&Header);
    auto Strings = EF.getStringTableForSymtab(Header);
    if (!Symbols || !Strings)
      return fileError(Path,
                       "unreadable symbol table " + Sections[TableIndex].Name);
    ArrayRef<ELFT::Word> Extended = extendedIndices(EF, TableIndex);
    std::vector<Symbol> &Table = Tables[TableIndex];
    for (const auto &Sym : *Symbols) {
      Expected<StringRef> Name = Sym.getName(*Strings);
      unsigned Ndx = sectionIndex(Sym, Table.size(), Extended, Sections.size());
      Symbol S{Name ? Name->split('@').first
                    : (consumeError(Name.takeError()), ""),
               Sym.st_value,
               Sym.st_size,
               Sym.getType(),
               Sym.getBinding(),
               Ndx,
               Sym.st_shndx == ELF::SHN_UNDEF,
               0};
      if (S.defined())
        S.Address = base(Ndx) + S.Value;
      Table.push_back(S);
    }
  }
  size_t Count = 0;
  for (const auto &[Index, Table] : Tables)
    Count += Table.size();
  Seen.reserve(Count);
  At.reserve(Count);
  for (unsigned TableIndex : Order)
    for (const Symbol &S : Tables[TableIndex])
      if (S.defined() && S.isFunction() &&
          Seen.insert({S.Name, S.Address}).second) {
        At[S.Address].push_back(&S);
        ByName[S.Name].push_back(&S);
      }
  for (const Section &S : Sections)
    if (S.Type == ELF::SHT_DYNSYM)
      for (const Symbol &Sym : Tables[S.Index])
        if (Sym.defined())
          Exported.insert(Sym.Name);
  return Error::success();
}

Error Binary::readRelocations() {
  if (Type != ELF::ET_REL)
    return Error::success();
  const ELFFile &EF = Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  for (const Section &S : Sections) {
    if (S.Type != ELF::SHT_RELA)
      continue;
    const ELFT::Shdr &Header = Headers[S.Index];
    auto Relas = EF.relas(Header);
    if (!Relas)
      return fileError(Path, toString(Relas.takeError()));
    auto Table = Tables.find(Header.sh_link);
    for (const auto &Rela : *Relas) {
      unsigned Index = Rela.getSymbol(/*IsMips64EL=*/false);
      const Symbol *Target = nullptr;
      if (Table != Tables.end() && Index > 0 && Index < Table->second.size())
        Target = &Table->second[Index];
      Relocations[{Header.sh_info, Rela.r_offset}] = {Target, Rela.r_addend};
    }
  }
  return Error::success();
}

void Binary::readProgramKind() {
  if (!linked())
    return;
  const ELFFile &EF = Object->getELFFile();
  auto Headers = EF.program_headers();
  if (!Headers) {
    consumeError(Headers.takeError());
    return;
  }
  for (const auto &Header : *Headers)
    if (Header.p_type == ELF::PT_INTERP)
      return;
  if (Type == ELF::ET_EXEC) {
    Static = true;
    return;
  }
  auto Dynamic = EF.dynamicEntries();
  if (!Dynamic) {
    consumeError(Dynamic.takeError());
    return;
  }
  for (const auto &Entry : *Dynamic)
    if (Entry.d_tag == ELF::DT_FLAGS_1 && (Entry.d_un.d_val & ELF::DF_1_PIE))
      Static = true;
}

bool Binary::startsInRuntime() const {
  auto Start = ByName.find("__rsb_start");
  if (!linked() || Start == ByName.end())
    return false;
  uint64_t Entry = Object->getELFFile().getHeader().e_entry;
  return llvm::any_of(Start->second,
                      [&](const Symbol *S) { return S->Value == Entry; });
}

/// Calls Visit for each relocation of the file's SHT_RELA sections (those
/// that cannot be read are skipped, as objdump does).
static void
forEachRela(const ELFFile &EF, ArrayRef<Section> Sections,
            function_ref<void(const ELFHeader &, const Elf_Rela &)> Visit) {
  auto Headers = cantFail(EF.sections());
  for (const Section &S : Sections) {
    if (S.Type != ELF::SHT_RELA)
      continue;
    auto Relas = EF.relas(Headers[S.Index]);
    if (!Relas) {
      consumeError(Relas.takeError());
      continue;
    }
    for (const Elf_Rela &Rela : *Relas)
      Visit(Headers[S.Index], Rela);
  }
}

/// An IFUNC symbol's value is its resolver; a linked file's IRELATIVE
/// relocations name those it runs (a stripped static program has no other
/// trace of them).
void Binary::readResolvers() {
  for (const auto &[Index, Table] : Tables)
    for (const Symbol &S : Table)
      if (S.defined() && S.Type == ELF::STT_GNU_IFUNC)
        Resolvers.push_back(S.Address);
  if (linked())
    forEachRela(Object->getELFFile(), Sections,
                [&](const ELFHeader &, const Elf_Rela &Rela) {
                  if (Rela.getType(/*IsMips64EL=*/false) ==
                      ELF::R_X86_64_IRELATIVE)
                    Resolvers.push_back(Rela.r_addend);
                });
  llvm::sort(Resolvers);
  Resolvers.erase(std::unique(Resolvers.begin(), Resolvers.end()),
                  Resolvers.end());
}

//===----------------------------------------------------------------------===//
// Decoding the code as objdump does
//===----------------------------------------------------------------------===//

/// The symbols objdump cuts code at and names addresses with: those of the
/// static symbol table (the dynamic one in a stripped file) but for files
/// and sections, the PLT's entries as `name@plt`, and the name of a code
/// section with no symbol at its start.
class Binary::Disassembly {
public:
  Disassembly(Binary &B) : B(B) {}
  void collectSymbols();
  void decodeSection(const Section &S, ArrayRef<uint8_t> Bytes);

private:
  void decodeChunk(const Section &S, ArrayRef<uint8_t> Bytes, uint64_t Start,
                   uint64_t End, uint64_t Limit);
  Insn &add(const Section &S, uint64_t Shown, uint64_t Size, InsnKind Kind);

  Binary &B;
  /// The end of each function symbol with a size, by name and value.
  DenseMap<std::pair<StringRef, uint64_t>, uint64_t> FunctionEnds;
};

void Binary::Disassembly::collectSymbols() {
  const ELFFile &EF = B.Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  auto AddTable = [&](unsigned Type, bool Dynamic) {
    for (const Section &S : B.Sections) {
      if (S.Type != Type)
        continue;
      auto Symbols = cantFail(EF.symbols(&Headers[S.Index]));
      StringRef Strings =
          cantFail(EF.getStringTableForSymtab(Headers[S.Index]));
      const std::vector<Symbol> &Table = B.Tables[S.Index];
      for (size_t I = 1; I < Symbols.size(); ++I) {
        const ELFT::Sym &Sym = Symbols[I];
        Expected<StringRef> Name = Sym.getName(Strings);
        if (!Name) {
          consumeError(Name.takeError());
          continue;
        }
        uint8_t Kind = Sym.getType();
        if (Name->empty() || Kind == ELF::STT_SECTION ||
            (!Dynamic && Kind == ELF::STT_FILE))
          continue;
        unsigned Ndx = Table[I].SectionIndex;
        uint64_t Address = Sym.st_value;
        if (Ndx && B.Type == ELF::ET_REL)
          Address += B.Sections[Ndx].Address;
        if (Ndx)
          B.DisplaySymbols[Ndx].push_back({Address, *Name, Kind});
        else if (!Dynamic)
          B.AbsoluteSymbols.push_back({Address, *Name, Kind});
      }
      return; // objdump reads one table of each kind
    }
  };
  AddTable(ELF::SHT_SYMTAB, /*Dynamic=*/false);
  if (B.DisplaySymbols.empty())
    AddTable(ELF::SHT_DYNSYM, /*Dynamic=*/true);

  StringMap<unsigned> ByName;
  for (const Section &S : B.Sections)
    ByName[S.Name] = S.Index;
  for (const object::ELFPltEntry &Entry :
       B.Object->getPltEntries(B.D.subtarget())) {
    if (!Entry.Symbol)
      continue;
    object::ELFSymbolRef Sym(object::SymbolRef(*Entry.Symbol, B.Object));
    Expected<StringRef> Name = Sym.getName();
    if (!Name || Name->empty()) {
      consumeError(Name.takeError());
      continue;
    }
    B.DisplaySymbols[ByName.lookup(Entry.Section)].push_back(
        {Entry.Address, B.Saver.save(*Name + "@plt"), Sym.getELFType()});
  }

  for (auto &[Index, Symbols] : B.DisplaySymbols)
    llvm::stable_sort(Symbols);
  llvm::stable_sort(B.AbsoluteSymbols);
  for (const Section &S : B.Sections) {
    if (!S.executable() || S.Type == ELF::SHT_NOBITS || !S.Size)
      continue;
    std::vector<DisplaySymbol> &Symbols = B.DisplaySymbols[S.Index];
    DisplaySymbol Dummy{S.Address, S.Name, ELF::STT_FUNC};
    auto It = llvm::lower_bound(Symbols, Dummy);
    bool HasStart = llvm::any_of(Symbols, [&](const DisplaySymbol &Sym) {
      return Sym.Address == S.Address;
    });
    if (!HasStart)
      Symbols.insert(It, Dummy);
  }
  for (const Section &S : B.Sections)
    B.SectionsByAddress.push_back({S.Address, S.Index});
  llvm::stable_sort(B.SectionsByAddress, [&](const auto &L, const auto &R) {
    if (L.first != R.first)
      return L.first < R.first;
    return B.Sections[L.second].Size < B.Sections[R.second].Size;
  });

  for (const auto &[Index, Table] : B.Tables)
    for (const Symbol &Sym : Table)
      if (Sym.Type == ELF::STT_FUNC && Sym.Size)
        FunctionEnds[{Sym.Name, Sym.Value}] = Sym.Value + Sym.Size;
}

void Binary::Disassembly::decodeSection(const Section &S,
                                        ArrayRef<uint8_t> Bytes) {
  const std::vector<DisplaySymbol> &Symbols = B.DisplaySymbols[S.Index];
  for (size_t First = 0, Next; First < Symbols.size(); First = Next) {
    uint64_t Start = Symbols[First].Address;
    for (Next = First; Next < Symbols.size() && Symbols[Next].Address == Start;
         ++Next)
      ;
    uint64_t End = S.Address + S.Size;
    if (Next < Symbols.size())
      End = std::min(End, Symbols[Next].Address);
    if (Start < S.Address || Start >= End)
      continue;
    // objdump shows the last of the symbols there, a code one if there is
    // one; bytes under data symbols only are data.
    size_t Shown = Next - 1;
    bool Data = true;
    for (size_t I = First; I != Next; ++I)
      if (Symbols[I].Type != ELF::STT_OBJECT &&
          Symbols[I].Type != ELF::STT_COMMON) {
        Data = false;
        Shown = I;
      }
    B.ShownUnder.push_back(Symbols[Shown].Name);
    if (Data) {
      for (uint64_t Line = Start; Line < End; Line += DataLine)
        add(S, Line, std::min(DataLine, End - Line), InsnKind::Data);
      continue;
    }
    auto Limit = FunctionEnds.find({Symbols[Shown].Name, Start});
    decodeChunk(S, Bytes, Start, End,
                Limit == FunctionEnds.end() ? UINT64_MAX : Limit->second);
  }
}

void Binary::Disassembly::decodeChunk(const Section &S, ArrayRef<uint8_t> Bytes,
                                      uint64_t Start, uint64_t End,
                                      uint64_t Limit) {
  bool Executable = B.Type == ELF::ET_EXEC;
  for (uint64_t Shown = Start; Shown < End;) {
    ArrayRef<uint8_t> Here = Bytes.slice(Shown - S.Address, End - Shown);
    size_t Zeroes = 0;
    while (Zeroes < Here.size() && Here[Zeroes] == 0)
      ++Zeroes;
    if (Zeroes >= SkippedZeroes) {
      Shown += Zeroes & ~uint64_t(3);
      continue;
    }
    MCInst Inst;
    uint64_t Size;
    bool Decoded =
        B.D.decode(Bytes.slice(Shown - S.Address), Shown, Inst, Size);
    InsnKind Kind = Shown >= Limit ? InsnKind::Data
                    : Decoded      ? InsnKind::Code
                                   : InsnKind::Unknown;
    Insn &I = add(S, Shown, Size, Kind);
    uint64_t At = Shown;
    Shown += Size;
    if (Kind != InsnKind::Code)
      continue;
    I.Opcode = Inst.getOpcode();
    I.Condition = B.D.condition(Inst).value_or(0);
    if (auto Target = B.D.branchTarget(Inst, At, Size)) {
      if (auto Name = B.labelAt(*Target, S.Index)) {
        I.HasTarget = true;
        I.Target = B.base(S.Index) + *Target;
        I.Branch = B.addLabel(*Name);
      }
    } else if (auto Address = B.D.memoryTarget(Inst, At, Size)) {
      B.Taken.push_back(*Address);
    }
    if (Executable)
      for (int64_t Value : B.D.immediates(Inst))
        if (Value >= 0)
          B.Taken.push_back(Value);
  }
}

Insn &Binary::Disassembly::add(const Section &S, uint64_t Shown, uint64_t Size,
                               InsnKind Kind) {
  Insn I{};
  I.Address = B.base(S.Index) + Shown;
  I.Symbol = B.ShownUnder.size() - 1;
  I.Branch = Insn::NoLabel;
  I.SectionIndex = S.Index;
  I.Size = Size;
  I.Kind = Kind;
  B.Insns.push_back(I);
  return B.Insns.back();
}

uint32_t Binary::addLabel(const Label &L) {
  Labels.push_back(L);
  return Labels.size() - 1;
}

uint64_t Binary::shown(const Insn &I) const {
  return I.Address - base(I.SectionIndex);
}

Error Binary::readCode() {
  Disassembly Code(*this);
  Code.collectSymbols();
  const ELFFile &EF = Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  // Room for an instruction in every two bytes of code, more than compiled
  // code has: growing the vector would copy it.
  uint64_t CodeSize = 0;
  for (const Section &S : Sections)
    if (S.executable() && S.Type != ELF::SHT_NOBITS)
      CodeSize += S.Size;
  Insns.reserve(CodeSize / 2);
  for (const Section &S : Sections) {
    if (!S.executable() || S.Type == ELF::SHT_NOBITS || !S.Size)
      continue;
    auto Bytes = EF.getSectionContents(Headers[S.Index]);
    if (!Bytes)
      return fileError(Path, toString(Bytes.takeError()));
    size_t First = Insns.size();
    Code.decodeSection(S, *Bytes);
    for (size_t K = First; K < Insns.size(); ++K)
      Insns[K].End = K + 1 < Insns.size() ? Insns[K + 1].Address
                                          : base(S.Index) + S.Address + S.Size;
  }
  if (!Relocations.empty())
    for (Insn &I : Insns)
      if (I.Kind == InsnKind::Code &&
          (isJump(I) || isCall(I) || mnemonic(I) == "cmpq"))
        resolveRelocation(I);
  auto ByAddress = [](const Insn &L, const Insn &R) {
    return L.Address < R.Address;
  };
  if (!llvm::is_sorted(Insns, ByAddress))
    llvm::stable_sort(Insns, ByAddress);
  return Error::success();
}

std::optional<Label> Binary::labelAt(uint64_t Target,
                                     unsigned SectionIndex) const {
  // A relocatable object's branches are named within their own section; a
  // linked file's after the symbols of the sections at the nearest start
  // at or below the target. Then the symbols of no section.
  SmallVector<const std::vector<DisplaySymbol> *, 4> Candidates;
  auto Lists = [&](unsigned Index) {
    auto It = DisplaySymbols.find(Index);
    if (It != DisplaySymbols.end())
      Candidates.push_back(&It->second);
  };
  if (Type == ELF::ET_REL) {
    Lists(SectionIndex);
  } else {
    auto It = llvm::partition_point(
        SectionsByAddress, [&](const auto &S) { return S.first <= Target; });
    uint64_t Nearest = 0;
    while (It != SectionsByAddress.begin()) {
      --It;
      if (Nearest == 0)
        Nearest = It->first;
      if (It->first != Nearest)
        break;
      Lists(It->second);
    }
  }
  Candidates.push_back(&AbsoluteSymbols);
  for (const std::vector<DisplaySymbol> *Symbols : Candidates) {
    auto It = llvm::partition_point(
        *Symbols, [&](const DisplaySymbol &S) { return S.Address <= Target; });
    if (It != Symbols->begin()) {
      --It;
      return Label{It->Name, Target - It->Address};
    }
  }
  return std::nullopt;
}

void Binary::resolveRelocation(Insn &I) {
  uint64_t Base = base(I.SectionIndex);
  for (uint64_t Offset = shown(I) + 1; Offset < I.End - Base; ++Offset) {
    auto Found = Relocations.find({I.SectionIndex, Offset});
    if (Found == Relocations.end())
      continue;
    auto [Target, Addend] = Found->second;
    // A branch's field is %rip-relative: the addend minus the bytes from
    // the field to the instruction's end says how far past the symbol it
    // goes (`call f` has -4: f itself).
    int64_t Past = Addend + int64_t(I.End - Base - Offset);
    I.HasTarget = false;
    I.Branch = Target ? addLabel({Target->Name,
                                  isJump(I) || isCall(I) ? uint64_t(Past) : 0})
                      : Insn::NoLabel;
    if (Target && Target->defined()) {
      I.HasTarget = true;
      I.Target = Target->Address + Addend + (I.End - Base - Offset);
      if (Target->Type == ELF::STT_SECTION) {
        auto There = At.find(I.Target);
        I.Branch = There != At.end()
                       ? addLabel({There->second.front()->Name, 0})
                       : Insn::NoLabel;
      }
    }
    return;
  }
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

MCInst Binary::decode(const Insn &I) const {
  const Section &S = Sections[I.SectionIndex];
  const ELFFile &EF = Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  ArrayRef<uint8_t> Bytes = cantFail(EF.getSectionContents(Headers[S.Index]));
  MCInst Inst;
  uint64_t Size;
  D.decode(Bytes.slice(shown(I) - S.Address), shown(I), Inst, Size);
  return Inst;
}

StringRef Binary::mnemonic(const Insn &I) const {
  switch (I.Kind) {
  case InsnKind::Code:
    return D.mnemonic(I.Opcode, I.Condition);
  case InsnKind::Unknown:
    return "<unknown>";
  case InsnKind::Data:
    return "(data)";
  }
  llvm_unreachable("unknown instruction kind");
}

std::pair<std::string, std::string> Binary::text(const Insn &I) const {
  if (I.Kind != InsnKind::Code)
    return {mnemonic(I).str(), ""};
  MCInst Inst = decode(I);
  auto Text = D.print(Inst, shown(I));
  // objdump names a branch target after the operand.
  if (auto Target = D.branchTarget(Inst, shown(I), I.Size))
    if (auto Name = labelAt(*Target, I.SectionIndex))
      Text.second += " <" + Name->text() + ">";
  return Text;
}

bool Binary::isJump(const Insn &I) const {
  return I.Kind == InsnKind::Code && mnemonic(I).starts_with("j");
}

bool Binary::isCall(const Insn &I) const {
  return I.Kind == InsnKind::Code && mnemonic(I).starts_with("call");
}

bool Binary::isCallTo(const Insn &I, ArrayRef<StringRef> Names) const {
  return isCall(I) && label(I) && is_contained(Names, label(I)->stem());
}

bool Binary::isStackLea(const Insn &I, int64_t Disp) const {
  if (I.Kind != InsnKind::Code || mnemonic(I) != "leaq")
    return false;
  MCInst Inst = decode(I);
  auto Memory = D.memory(Inst);
  return Memory && Memory->Base == D.reg("rsp") && !Memory->Index &&
         !Memory->Segment && Memory->Disp == Disp &&
         D.lastRegister(Inst) == D.reg("rsp");
}

bool Binary::isFsShiftBy5(const Insn &I) const {
  if (I.Kind != InsnKind::Code || !mnemonic(I).starts_with("sar"))
    return false;
  MCInst Inst = decode(I);
  auto Memory = D.memory(Inst);
  return D.firstImmediate(Inst) == 5 && Memory &&
         Memory->Segment == D.reg("fs");
}

/// rsb-ld's fallback frame from instruction K on (after any endbr64):
/// `lea -8(%rsp),%rsp; call f; lea 8(%rsp),%rsp; jmp __rsb_reset_depth`.
bool Binary::isFallbackFrame(size_t K) const {
  if (K + 4 > Insns.size())
    return false;
  const Insn &Down = Insns[K], &Call = Insns[K + 1], &Up = Insns[K + 2],
             &Reset = Insns[K + 3];
  return isStackLea(Down, -8) && isCall(Call) && Call.HasTarget &&
         Call.Address == Down.End && isStackLea(Up, 8) &&
         Up.Address == Call.End && Reset.Address == Up.End &&
         mnemonic(Reset) == "jmp" && label(Reset) &&
         label(Reset)->stem() == ResetDepth;
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

/// The first instruction at or after Address.
static size_t firstAtOrAfter(ArrayRef<Insn> Insns, uint64_t Address) {
  return llvm::partition_point(
             Insns, [&](const Insn &I) { return I.Address < Address; }) -
         Insns.begin();
}

std::optional<size_t> Binary::insnAt(uint64_t Address) const {
  size_t K = firstAtOrAfter(Insns, Address);
  if (K < Insns.size() && Insns[K].Address == Address)
    return K;
  return std::nullopt;
}

std::pair<size_t, size_t> Binary::code(uint64_t Start, uint64_t End) const {
  return {firstAtOrAfter(Insns, Start), firstAtOrAfter(Insns, End)};
}

const Insn *Binary::previous(size_t K, uint64_t Floor) const {
  if (K > 0 && K < Insns.size() && Insns[K - 1].End == Insns[K].Address &&
      Insns[K - 1].Address >= Floor)
    return &Insns[K - 1];
  return nullptr;
}

const Symbol *Binary::namedAt(uint64_t Address,
                              ArrayRef<StringRef> Names) const {
  auto It = At.find(Address);
  if (It == At.end())
    return nullptr;
  for (const Symbol *S : It->second)
    if (is_contained(Names, S->Name))
      return S;
  return nullptr;
}

const Function *Binary::bodyOf(uint64_t Address) const {
  auto It = llvm::partition_point(
      Bodies, [&](const Function *F) { return *F->Start <= Address; });
  if (It == Bodies.begin())
    return nullptr;
  --It;
  return Address < (*It)->End ? *It : nullptr;
}

const Function *Binary::entryOf(uint64_t Address) const {
  auto It = llvm::partition_point(EntryRanges, [&](const Function *F) {
    return F->Entry->Address <= Address;
  });
  if (It == EntryRanges.begin())
    return nullptr;
  --It;
  const Symbol &Entry = *(*It)->Entry;
  return Address < Entry.Address + Entry.Size ? *It : nullptr;
}

bool Binary::isResolver(uint64_t Address) const {
  return std::binary_search(Resolvers.begin(), Resolvers.end(), Address);
}

bool Binary::onlyResolvers(StringRef Name) const {
  auto Named = ByName.find(Name);
  return Named != ByName.end() &&
         llvm::all_of(Named->second, [&](const Symbol *S) {
           return S->Type == ELF::STT_GNU_IFUNC || isResolver(S->Address);
         });
}

std::vector<StringRef> Binary::resolverNames() const {
  std::vector<StringRef> Found;
  for (uint64_t Address : Resolvers) {
    auto Symbols = At.find(Address);
    if (Symbols == At.end() || Starts.count(Address))
      continue;
    for (const Symbol *S : Symbols->second)
      if (S->Type == ELF::STT_FUNC)
        Found.push_back(S->Name);
  }
  llvm::sort(Found);
  Found.erase(std::unique(Found.begin(), Found.end()), Found.end());
  return Found;
}

std::optional<StringRef> Binary::partOf(StringRef Symbol) const {
  // f.resolver selects among f's versions (C++ multiversioning keeps the
  // default one as f); split off from nothing.
  if (ResolverNames.contains(Symbol))
    return std::nullopt;
  while (Symbol.contains('.')) {
    Symbol = Symbol.rsplit('.').first;
    if (Names.contains(Symbol))
      return Symbol;
  }
  return std::nullopt;
}

std::optional<Label> Binary::functionAt(uint64_t Address) const {
  if (SymbolRanges.empty()) {
    for (const auto &[Start, Symbols] : At)
      for (const Symbol *S : Symbols)
        SymbolRanges.emplace_back(S->Address, S->Address + S->Size, S->Name);
    llvm::sort(SymbolRanges);
  }
  // The nearest few symbols starting at or below Address, the latest
  // first: functions nest only that deep (a function and its aliases).
  auto It = llvm::partition_point(
      SymbolRanges, [&](const auto &R) { return std::get<0>(R) <= Address; });
  for (int N = 0; N < 4 && It != SymbolRanges.begin(); ++N) {
    --It;
    auto [Start, End, Name] = *It;
    if (Start <= Address && Address < End)
      return Label{Name, Address - Start};
  }
  return std::nullopt;
}

bool Binary::instrumentedCode(const Insn &I) const {
  return bodyOf(I.Address) || partOf(symbol(I));
}

void Binary::collectTaken() const {
  const ELFFile &EF = Object->getELFFile();
  auto Headers = cantFail(EF.sections());
  if (Type == ELF::ET_REL) {
    for (const auto &[Where, Reloc] : Relocations)
      if (Reloc.first && Reloc.first->defined()) {
        // Absolute, and %rip-relative (which points 4 bytes on).
        uint64_t Address = Reloc.first->Address + Reloc.second;
        Taken.push_back(Address);
        Taken.push_back(Address + 4);
      }
  } else if (Type == ELF::ET_DYN) {
    // What the dynamic relocations store: a symbol's address plus the
    // addend, or the addend alone (relative).
    forEachRela(EF, Sections,
                [&](const ELFHeader &Header, const Elf_Rela &Rela) {
                  auto Table = Tables.find(Header.sh_link);
                  unsigned Index = Rela.getSymbol(/*IsMips64EL=*/false);
                  if (Index == 0)
                    Taken.push_back(Rela.r_addend);
                  else if (Table != Tables.end() &&
                           Index < Table->second.size() && Rela.r_addend >= 0)
                    Taken.push_back(Table->second[Index].Value + Rela.r_addend);
                });
  } else {
    // A non-PIE executable stores absolute addresses: every word of its
    // data may be one.
    for (const Section &S : Sections) {
      if (!S.allocated() || S.executable() || S.Type == ELF::SHT_NOBITS)
        continue;
      auto Bytes = EF.getSectionContents(Headers[S.Index]);
      if (!Bytes) {
        consumeError(Bytes.takeError());
        continue;
      }
      for (size_t At = 0; At + 8 <= Bytes->size(); At += 8)
        Taken.push_back(support::endian::read64le(Bytes->data() + At));
    }
  }
  llvm::sort(Taken);
  Taken.erase(std::unique(Taken.begin(), Taken.end()), Taken.end());
  TakenSorted = true;
}

bool Binary::takesAddressIn(uint64_t Start, uint64_t End) const {
  if (!TakenSorted)
    collectTaken();
  auto It = llvm::upper_bound(Taken, Start);
  return It != Taken.end() && *It < End;
}

ArrayRef<std::pair<uint64_t, size_t>>
Binary::branchesTo(uint64_t Address) const {
  if (!HasSources) {
    for (size_t K = 0; K != Insns.size(); ++K)
      if (Insns[K].HasTarget)
        Sources.push_back({Insns[K].Target, K});
    llvm::sort(Sources);
    HasSources = true;
  }
  auto First = llvm::lower_bound(Sources, std::make_pair(Address, size_t(0)));
  auto Last = First;
  while (Last != Sources.end() && Last->first == Address)
    ++Last;
  return ArrayRef(Sources).slice(First - Sources.begin(), Last - First);
}

std::optional<uint64_t> Binary::operandAddress(const Insn &I) const {
  MCInst Inst = decode(I);
  auto Memory = D.memory(Inst);
  bool Relative = Memory && Memory->Base == D.reg("rip");
  if (Memory && (Memory->Segment || (Memory->Base && !Relative)))
    return std::nullopt;
  uint64_t Base = base(I.SectionIndex);
  if (Type == ELF::ET_REL) {
    for (uint64_t Offset = shown(I) + 1; Offset < I.End - Base; ++Offset) {
      auto Found = Relocations.find({I.SectionIndex, Offset});
      if (Found == Relocations.end())
        continue;
      auto [Target, Addend] = Found->second;
      if (!Target || !Target->defined() || Target->Binding == ELF::STB_WEAK)
        return std::nullopt;
      uint64_t Address = Target->Address + Addend;
      // A %rip-relative field counts from its own end to the instruction's.
      return Relative ? Address + (I.End - Base - Offset) : Address;
    }
    // Within its own section the assembler leaves no relocation.
    if (!Relative)
      return std::nullopt;
  }
  if (Relative)
    if (auto Address = D.memoryTarget(Inst, shown(I), I.Size))
      return *Address + Base;
  // A position-independent file cannot name an address absolutely.
  if (Type != ELF::ET_EXEC || Relative)
    return std::nullopt;
  if (Memory)
    return uint64_t(Memory->Disp);
  if (auto Immediate = D.firstImmediate(Inst))
    return uint64_t(*Immediate);
  return std::nullopt;
}

const Symbol *Binary::objectAt(uint64_t Address) const {
  if (!HasObjects) {
    for (const auto &[Index, Table] : Tables)
      for (const Symbol &S : Table)
        if (S.defined() && S.Type == ELF::STT_OBJECT && S.Size)
          Objects.push_back(&S);
    llvm::sort(Objects, [](const Symbol *L, const Symbol *R) {
      return L->Address < R->Address;
    });
    HasObjects = true;
  }
  auto It = llvm::partition_point(
      Objects, [&](const Symbol *S) { return S->Address <= Address; });
  // The nearest few: data objects nest no deeper than their aliases.
  for (int N = 0; N < 4 && It != Objects.begin(); ++N) {
    --It;
    if (Address < (*It)->Address + (*It)->Size)
      return *It;
  }
  return nullptr;
}

bool Binary::readOnly(const Symbol &S) const {
  const Section &Holder = Sections[S.SectionIndex];
  return Holder.allocated() && Holder.Type != ELF::SHT_NOBITS &&
         (!(Holder.Flags & ELF::SHF_WRITE) ||
          Holder.Name.starts_with(".data.rel.ro"));
}

const Section *Binary::sectionAt(uint64_t Address) const {
  for (const Section &S : Sections)
    if (S.allocated() && S.Type != ELF::SHT_NOBITS &&
        base(S.Index) + S.Address <= Address &&
        Address < base(S.Index) + S.Address + S.Size)
      return &S;
  return nullptr;
}

std::optional<uint64_t> Binary::wordAt(const Symbol &S, uint64_t Offset) const {
  return codeAddressAt(Sections[S.SectionIndex], S.Address + Offset, 8, 0);
}

std::optional<uint64_t> Binary::codeAddressAt(const Section &Holder,
                                              uint64_t Address, unsigned Size,
                                              uint64_t From) const {
  uint64_t Start = base(Holder.Index) + Holder.Address;
  if (Holder.Type == ELF::SHT_NOBITS || Address < Start ||
      Address + Size > Start + Holder.Size)
    return std::nullopt;
  if (Type == ELF::ET_REL) {
    auto Found = Relocations.find({Holder.Index, Address - base(Holder.Index)});
    if (Found == Relocations.end())
      return std::nullopt;
    auto [Target, Addend] = Found->second;
    if (!Target || !Target->defined() || Target->Binding == ELF::STB_WEAK)
      return std::nullopt;
    // A 4-byte offset is %rip-relative (S + A - P): from From, it is P -
    // From further.
    uint64_t Value = Target->Address + Addend;
    return Size == 8 ? Value : Value - (Address - From);
  }
  const ELFFile &EF = Object->getELFFile();
  if (!HasDynamicRelocations) {
    forEachRela(EF, Sections, [&](const ELFHeader &, const Elf_Rela &Rela) {
      DynamicRelocations[Rela.r_offset] = {Rela.getType(/*IsMips64EL=*/false),
                                           Rela.getSymbol(/*IsMips64EL=*/false),
                                           Rela.r_addend};
    });
    // Packed relative relocations (-z pack-relative-relocs) keep the
    // addend in the word itself.
    for (const Section &S : Sections) {
      if (S.Type != ELF::SHT_RELR)
        continue;
      auto Packed = EF.relrs(cantFail(EF.sections())[S.Index]);
      if (!Packed) {
        consumeError(Packed.takeError());
        continue;
      }
      for (const auto &Rel : EF.decode_relrs(*Packed))
        RelativeWords.insert(Rel.r_offset);
    }
    HasDynamicRelocations = true;
  }
  // A relocation to a symbol may bind to another object's definition.
  if (auto Found = DynamicRelocations.find(Address);
      Found != DynamicRelocations.end()) {
    auto [RelocationType, Index, Addend] = Found->second;
    if (Size != 8 || RelocationType != ELF::R_X86_64_RELATIVE || Index)
      return std::nullopt;
    return Addend;
  }
  // Unrelocated, a position-independent file's word is no address.
  if (Size == 8 && Type != ELF::ET_EXEC && !RelativeWords.contains(Address))
    return std::nullopt;
  auto Bytes = EF.getSectionContents(cantFail(EF.sections())[Holder.Index]);
  if (!Bytes) {
    consumeError(Bytes.takeError());
    return std::nullopt;
  }
  const uint8_t *At = Bytes->data() + (Address - Start);
  if (Size == 8)
    return support::endian::read64le(At);
  return From + int64_t(int32_t(support::endian::read32le(At)));
}

std::optional<std::string> Binary::counterOffset(const Insn &I) const {
  auto Memory = D.memory(decode(I));
  if (!Memory || Memory->Segment != D.reg("fs") || Memory->Base ||
      Memory->Index)
    return std::nullopt;
  std::string Key = std::to_string(Memory->Disp);
  // In an object the displacement is 0 and the relocation names the
  // variable (R_X86_64_TPOFF32 __rsb_depth).
  uint64_t Base = base(I.SectionIndex);
  for (uint64_t Offset = shown(I) + 1; Offset < I.End - Base; ++Offset) {
    auto Found = Relocations.find({I.SectionIndex, Offset});
    if (Found == Relocations.end())
      continue;
    const Symbol *Target = Found->second.first;
    Key += "+" + (Target ? Target->Name.str() : std::string("?")) + "+" +
           std::to_string(Found->second.second);
    break;
  }
  return Key;
}
