//===- RSBStuffDepthTable.h - Call depths of the C library ------*- C++ -*-===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// The table utils/libc-depth computes from the installed C library's machine
// code (docs/libc-depth.md), as the pass reads it: one function's maximum
// call depth, and which build of which library that number holds for.
//
//===----------------------------------------------------------------------===//

#ifndef RSBSTUFF_RSBSTUFFDEPTHTABLE_H
#define RSBSTUFF_RSBSTUFFDEPTHTABLE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

#include <optional>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace rsbstuff {

/// The module flag that carries the table's file to code generated in the
/// linker (LTO).
inline constexpr llvm::StringLiteral DepthTableFlag = "rsb-stuff-libc-depths";

/// The table's file: -x86-rsb-stuff-libc-depths, or in the linker the one
/// recorded in the module flag; empty for none.
llvm::StringRef depthTablePath();

/// In the linker, where no option names the table: takes the file the
/// module recorded. The first module of the link decides, for all.
void useRecordedDepthTable(const llvm::Module &M);

/// A bounded entry of the table.
struct LibraryDepth {
  llvm::StringRef Library; ///< The library's file name (`libc.so.6`).
  llvm::StringRef BuildId; ///< Its GNU build-id, in hex.
  unsigned Depth;          ///< Calls nested below the function (0: a leaf).
  /// If not 0, Depth holds only once the byte at this address of the
  /// library (a once-flag: glibc's allocator initialised) is set.
  uint64_t OnceFlag = 0;
};

/// The entry of the default-version symbol Name in the table that
/// depthTablePath() names, if it is bounded and no other library
/// of the table exports Name too. The file is read once; a file that cannot
/// be read or parsed is reported as an error through Ctx.
std::optional<LibraryDepth> libraryDepth(llvm::StringRef Name,
                                         llvm::LLVMContext &Ctx);

/// A function with a bounded entry in the table, whether or not LLVM's
/// library information knows it (`__errno_location`, `localeconv`): calls
/// to it are capped like those to known library functions. The table holds
/// only for the C library's own definition, which the runtime checks the
/// callee is before it arms a cap; a same-named function of the program
/// keeps the reset.
bool isTableLibraryFunction(llvm::StringRef Name, llvm::LLVMContext &Ctx);
/// Whether the table lists the function at all, of bounded depth or not:
/// an export of the C library, never called through an entry.
bool isTableListedFunction(llvm::StringRef Name, llvm::LLVMContext &Ctx);

} // namespace rsbstuff

#endif // RSBSTUFF_RSBSTUFFDEPTHTABLE_H
