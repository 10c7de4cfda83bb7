//===- X86Decoder.cpp - Decoding x86-64 code with LLVM's MC layer ---------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The MC disassembler, instruction analysis and AT&T printer, set up as
// llvm-objdump sets them up, so that instructions split, branches resolve
// and messages read as in `llvm-objdump -d`. The X86 opcode and register
// enums are private to LLVM (the target's headers are not installed): the
// checks name mnemonics, which come from the printer's own tables, and
// registers, which come from the register info by name.
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrDesc.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace rsbverify;

// A conditional jump's mnemonic is `j` followed by its condition, in the
// order of the x86 condition codes (the low nibble of its opcode byte).
static const char *const ConditionalJumps[] = {
    "jo", "jno", "jb", "jae", "je", "jne", "jbe", "ja",
    "js", "jns", "jp", "jnp", "jl", "jge", "jle", "jg"};

// Instruction prefixes the printer prints as words of their own.
static const StringLiteral Prefixes[] = {
    "rep", "repe", "repz", "repne", "repnz",  "notrack",
    "bnd", "lock", "cs",   "ds",    "data16", "addr32"};

// x86-64 memory operands are five MC operands: base, scale, index,
// displacement, segment.
static constexpr unsigned MemoryOperandCount = 5;

X86Decoder::~X86Decoder() = default;

Expected<std::unique_ptr<X86Decoder>> X86Decoder::create() {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86Disassembler();
  Triple TT("x86_64-unknown-linux-gnu");
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(TT, Error);
  if (!T)
    return createStringError(inconvertibleErrorCode(), Error);
  std::unique_ptr<X86Decoder> D(new X86Decoder());
  D->RegInfo.reset(T->createMCRegInfo(TT));
  MCTargetOptions Options;
  D->AsmInfo.reset(T->createMCAsmInfo(*D->RegInfo, TT, Options));
  D->SubtargetInfo.reset(T->createMCSubtargetInfo(TT, "", ""));
  D->InstrInfo.reset(T->createMCInstrInfo());
  D->Context = std::make_unique<MCContext>(
      TT, D->AsmInfo.get(), D->RegInfo.get(), D->SubtargetInfo.get());
  D->Disassembler.reset(
      T->createMCDisassembler(*D->SubtargetInfo, *D->Context));
  D->Analysis.reset(T->createMCInstrAnalysis(D->InstrInfo.get()));
  D->Printer.reset(T->createMCInstPrinter(TT, /*SyntaxVariant=*/0, *D->AsmInfo,
                                          *D->InstrInfo, *D->RegInfo));
  if (!D->Disassembler || !D->Analysis || !D->Printer)
    return createStringError(inconvertibleErrorCode(),
                             "the x86-64 disassembler is not available");
  if (D->InstrInfo->getNumOpcodes() > UINT16_MAX + 1)
    return createStringError(inconvertibleErrorCode(),
                             "more x86 opcodes than Insn::Opcode holds");
  D->Printer->setPrintImmHex(true);
  D->Printer->setPrintBranchImmAsAddress(true);
  D->Printer->setMCInstrAnalysis(D->Analysis.get());

  // The first word the printer prints for each opcode (the text before its
  // first operand may go on: `stosq %rax, ...`). A condition is an
  // operand: conditional jumps are `j`, setcc `set`, cmovcc `cmov`.
  MCInst Inst;
  for (unsigned Op = 0, E = D->InstrInfo->getNumOpcodes(); Op != E; ++Op) {
    Inst.setOpcode(Op);
    const char *Text = D->Printer->getMnemonic(Inst).first;
    D->Mnemonics.push_back(StringRef(Text ? Text : "")
                               .ltrim()
                               .take_until([](char C) { return isSpace(C); })
                               .str());
  }
  for (unsigned Reg = 1, E = D->RegInfo->getNumRegs(); Reg != E; ++Reg)
    D->Registers[StringRef(D->RegInfo->getName(Reg)).lower()] = Reg;
  for (unsigned N = 0; N != 8; ++N) {
    static const char *const Low[] = {"ax", "bx", "cx", "dx",
                                      "si", "di", "bp", "sp"};
    D->FullRegisters[D->reg(std::string("e") + Low[N])] =
        D->reg(std::string("r") + Low[N]);
    D->FullRegisters[D->reg("r" + std::to_string(N + 8) + "d")] =
        D->reg("r" + std::to_string(N + 8));
  }
  return std::move(D);
}

bool X86Decoder::decode(ArrayRef<uint8_t> Bytes, uint64_t Address, MCInst &Inst,
                        uint64_t &Size) const {
  bool Decoded =
      Disassembler->getInstruction(Inst, Size, Bytes, Address, nulls()) ==
      MCDisassembler::Success;
  if (Size == 0)
    Size = std::min<uint64_t>(Bytes.size(),
                              Disassembler->suggestBytesToSkip(Bytes, Address));
  return Decoded;
}

std::optional<uint64_t> X86Decoder::branchTarget(const MCInst &Inst,
                                                 uint64_t Address,
                                                 uint64_t Size) const {
  uint64_t Target;
  if (Analysis->evaluateBranch(Inst, Address, Size, Target))
    return Target;
  return std::nullopt;
}

std::optional<uint64_t> X86Decoder::memoryTarget(const MCInst &Inst,
                                                 uint64_t Address,
                                                 uint64_t Size) const {
  return Analysis->evaluateMemoryOperandAddress(Inst, SubtargetInfo.get(),
                                                Address, Size);
}

StringRef X86Decoder::mnemonic(unsigned Opcode, unsigned Condition) const {
  StringRef Mnemonic = Mnemonics[Opcode];
  return Mnemonic == "j" ? StringRef(ConditionalJumps[Condition & 15])
                         : Mnemonic;
}

std::optional<unsigned> X86Decoder::condition(const MCInst &Inst) const {
  unsigned N = Inst.getNumOperands();
  if (Mnemonics[Inst.getOpcode()] != "j" || N == 0 ||
      !Inst.getOperand(N - 1).isImm())
    return std::nullopt;
  return Inst.getOperand(N - 1).getImm();
}

std::pair<std::string, std::string> X86Decoder::print(const MCInst &Inst,
                                                      uint64_t Address) const {
  std::string Text;
  raw_string_ostream OS(Text);
  Printer->printInst(&Inst, Address, "", *SubtargetInfo, OS);
  // `[prefix...] mnemonic operands`: objdump's words, prefixes dropped.
  auto [Mnemonic, Operands] = getToken(Text);
  while (is_contained(Prefixes, Mnemonic) && !Operands.trim().empty())
    std::tie(Mnemonic, Operands) = getToken(Operands);
  return {Mnemonic.str(), Operands.trim().str()};
}

bool X86Decoder::isIndirectBranch(unsigned Opcode) const {
  return InstrInfo->get(Opcode).isIndirectBranch();
}

bool X86Decoder::writes(const MCInst &Inst, MCRegister Reg) const {
  return InstrInfo->get(Inst.getOpcode()).hasDefOfPhysReg(Inst, Reg, *RegInfo);
}

unsigned X86Decoder::memoryOperandIndex(const MCInst &Inst) const {
  const MCInstrDesc &Desc = InstrInfo->get(Inst.getOpcode());
  // lea's address is an operand of its own kind, second after the
  // destination.
  if (StringRef(Mnemonics[Inst.getOpcode()]).starts_with("lea"))
    return 1;
  for (unsigned I = 0, E = std::min<unsigned>(Desc.getNumOperands(),
                                              Inst.getNumOperands());
       I != E; ++I)
    if (Desc.operands()[I].OperandType == MCOI::OPERAND_MEMORY)
      return I;
  return Inst.getNumOperands();
}

std::optional<MemoryOperand> X86Decoder::memory(const MCInst &Inst) const {
  unsigned I = memoryOperandIndex(Inst);
  if (I + MemoryOperandCount > Inst.getNumOperands())
    return std::nullopt;
  const MCOperand &Base = Inst.getOperand(I), &Scale = Inst.getOperand(I + 1),
                  &Index = Inst.getOperand(I + 2),
                  &Disp = Inst.getOperand(I + 3),
                  &Segment = Inst.getOperand(I + 4);
  if (!Base.isReg() || !Scale.isImm() || !Index.isReg() || !Disp.isImm() ||
      !Segment.isReg())
    return std::nullopt;
  return MemoryOperand{Base.getReg(), Index.getReg(), Segment.getReg(),
                       Scale.getImm(), Disp.getImm()};
}

// AT&T prints the operands in the reverse of their MC order: the first MC
// operand (the destination, or a memory operand of five) last.
MCRegister X86Decoder::lastRegister(const MCInst &Inst) const {
  if (Inst.getNumOperands() == 0 || !Inst.getOperand(0).isReg() ||
      memoryOperandIndex(Inst) == 0)
    return MCRegister();
  return Inst.getOperand(0).getReg();
}

std::optional<int64_t> X86Decoder::firstImmediate(const MCInst &Inst) const {
  unsigned N = Inst.getNumOperands();
  const MCInstrDesc &Desc = InstrInfo->get(Inst.getOpcode());
  if (N == 0 || N > Desc.getNumOperands() || !Inst.getOperand(N - 1).isImm() ||
      Desc.operands()[N - 1].OperandType != MCOI::OPERAND_IMMEDIATE)
    return std::nullopt;
  return Inst.getOperand(N - 1).getImm();
}

MCRegister X86Decoder::firstRegister(const MCInst &Inst) const {
  unsigned N = Inst.getNumOperands();
  if (N == 0 || memoryFirst(Inst) || !Inst.getOperand(N - 1).isReg())
    return MCRegister();
  return Inst.getOperand(N - 1).getReg();
}

bool X86Decoder::memoryFirst(const MCInst &Inst) const {
  return memory(Inst) &&
         memoryOperandIndex(Inst) + MemoryOperandCount == Inst.getNumOperands();
}

SmallVector<int64_t, 2> X86Decoder::immediates(const MCInst &Inst) const {
  SmallVector<int64_t, 2> Values;
  const MCInstrDesc &Desc = InstrInfo->get(Inst.getOpcode());
  for (unsigned I = 0, E = std::min<unsigned>(Desc.getNumOperands(),
                                              Inst.getNumOperands());
       I != E; ++I)
    if (Inst.getOperand(I).isImm() &&
        Desc.operands()[I].OperandType == MCOI::OPERAND_IMMEDIATE)
      Values.push_back(Inst.getOperand(I).getImm());
  return Values;
}

MCRegister X86Decoder::fullRegister(MCRegister Reg) const {
  auto It = FullRegisters.find(Reg.id());
  return It == FullRegisters.end() ? Reg : It->second;
}

std::string X86Decoder::registerName(MCRegister Reg) const {
  return Reg ? StringRef(RegInfo->getName(Reg)).lower() : "";
}

MCRegister X86Decoder::reg(StringRef Name) const {
  return Registers.lookup(Name);
}
