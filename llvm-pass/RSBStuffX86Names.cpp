//===- RSBStuffX86Names.cpp - X86 opcodes and registers by name -----------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The X86 opcode and register enums are private to LLVM (X86InstrInfo.h is
// not installed), but their names are part of the MC tables: the plugin
// finds the numbers it needs by name, once per process.
//
//===----------------------------------------------------------------------===//

#include "RSBStuff.h"

#include "llvm/ADT/Twine.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/Support/ErrorHandling.h"

#include <memory>
#include <mutex>

using namespace llvm;
using namespace rsbstuff;

const X86Names &X86Names::get(const MCInstrInfo &MII,
                              const MCRegisterInfo &MRI) {
  static std::mutex Lock;
  static std::unique_ptr<X86Names> Names;
  std::lock_guard<std::mutex> Guard(Lock);
  if (!Names) {
    Names = std::make_unique<X86Names>();
    for (unsigned Op = 0, E = MII.getNumOpcodes(); Op != E; ++Op)
      Names->Opcodes[MII.getName(Op)] = Op;
    for (unsigned Reg = 1, E = MRI.getNumRegs(); Reg != E; ++Reg)
      Names->Registers[MRI.getName(Reg)] = Reg;
  }
  return *Names;
}

unsigned X86Names::opcode(StringRef Name) const {
  auto It = Opcodes.find(Name);
  if (It == Opcodes.end())
    report_fatal_error(Twine("rsb-stuff: X86 opcode ") + Name + " not found");
  return It->second;
}

MCRegister X86Names::reg(StringRef Name) const {
  auto It = Registers.find(Name);
  if (It == Registers.end())
    report_fatal_error(Twine("rsb-stuff: X86 register ") + Name + " not found");
  return It->second;
}
