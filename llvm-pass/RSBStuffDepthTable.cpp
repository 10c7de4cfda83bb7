//===- RSBStuffDepthTable.cpp - Call depths of the C library --------------===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// Reads the output of utils/libc-depth: for each library a header line
//
//   # libc-depth 1 path /lib/x86_64-linux-gnu/libc.so.6 build-id 93ac...
//
// then `name depth depth-if-own-definitions [depth@flag]` lines. Only the
// first depth is used (whatever libc's own PLT calls resolve to), or, when
// it is unbounded, the optional once-flag depth (the depth once the byte at
// address `flag` of the library is set: malloc after its first call); only
// default versions (bare names), and only bounded ones: anything else, or a
// name two libraries export, is not in the table, and a call to it clears
// the credit as before. The numbers hold for that build only; the runtime
// checks at start-up that the program really runs it, and that the flag is
// set (runtime/rsb_caps.c).
//
// Code generated in the linker (LTO) gets no -mllvm option: it reads the
// table the compile step recorded in the module flag
// `rsb-stuff-libc-depths` (RSBStuffOptions.cpp), the same file.
//
//===----------------------------------------------------------------------===//

#include "RSBStuffDepthTable.h"
#include "RSBStuffOptions.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <atomic>
#include <deque>
#include <mutex>

using namespace llvm;
using namespace rsbstuff;

namespace {

struct Library {
  std::string Name, BuildId;
};

struct Table {
  std::deque<Library> Libraries; // Stable addresses for the StringRefs.
  StringMap<std::optional<LibraryDepth>> Functions;
  std::string Error;
};

/// `# libc-depth 1 path P build-id B`: a new library, or nothing.
bool parseHeader(StringRef Line, Library &Lib) {
  SmallVector<StringRef, 8> Words;
  Line.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() != 7 || Words[0] != "#" || Words[1] != "libc-depth" ||
      Words[2] != "1" || Words[3] != "path" || Words[5] != "build-id" ||
      Words[6].empty() || !all_of(Words[6], isHexDigit))
    return false;
  Lib.Name = sys::path::filename(Words[4]).str();
  Lib.BuildId = Words[6].lower();
  return true;
}

/// `8@1da488`: depth 8 once the byte at 0x1da488 is set.
static bool parseOnceFlagDepth(StringRef Word, unsigned &Depth,
                               uint64_t &Flag) {
  auto [DepthText, FlagText] = Word.split('@');
  return !DepthText.getAsInteger(10, Depth) &&
         !FlagText.getAsInteger(16, Flag) && Flag != 0;
}

void addFunction(Table &T, StringRef Line) {
  SmallVector<StringRef, 4> Words;
  Line.split(Words, ' ', -1, /*KeepEmpty=*/false);
  if (Words.size() < 2 || Words[0].contains('@'))
    return;
  auto [It, New] = T.Functions.try_emplace(Words[0]);
  if (!New) { // Exported by two libraries: which one a call reaches depends.
    It->second.reset();
    return;
  }
  LibraryDepth D{T.Libraries.back().Name, T.Libraries.back().BuildId, 0};
  if (!Words[1].getAsInteger(10, D.Depth) ||
      (Words.size() >= 4 && parseOnceFlagDepth(Words[3], D.Depth, D.OnceFlag)))
    It->second = D;
}

Table readTable(StringRef Path) {
  Table T;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer) {
    T.Error = "cannot read " + Buffer.getError().message();
    return T;
  }
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Library Lib;
    if (parseHeader(Line, Lib))
      T.Libraries.push_back(std::move(Lib));
    else if (Line.starts_with("# libc-depth"))
      T.Error = "unknown table header '" + Line.str() + "'";
    else if (!Line.starts_with("#") && !Line.trim().empty()) {
      if (T.Libraries.empty())
        T.Error = "function line before any library header";
      else
        addFunction(T, Line);
    }
    if (!T.Error.empty()) {
      T.Functions.clear();
      return T;
    }
  }
  return T;
}

} // namespace

/// The table of the link's code generation: the file the first module
/// recorded (set once, before any function of the link is generated).
static std::once_flag RecordedOnce;
static std::string RecordedPath;

void rsbstuff::useRecordedDepthTable(const Module &M) {
  std::call_once(RecordedOnce, [&M] {
    if (auto *Path =
            dyn_cast_or_null<MDString>(M.getModuleFlag(DepthTableFlag)))
      RecordedPath = Path->getString().str();
  });
}

StringRef rsbstuff::depthTablePath() {
  return opts::LibraryDepths.empty() ? StringRef(RecordedPath)
                                     : StringRef(opts::LibraryDepths);
}

/// The table, read once; null without one or when it cannot be read (an
/// error, reported once).
static const Table *loadedTable(LLVMContext &Ctx) {
  static std::once_flag Once;
  static Table T;
  if (depthTablePath().empty())
    return nullptr;
  std::call_once(Once, [] { T = readTable(depthTablePath()); });
  if (!T.Error.empty()) {
    static std::atomic<bool> Reported(false);
    if (Reported.exchange(true))
      return nullptr;
    Ctx.diagnose(DiagnosticInfoGeneric("x86-rsb-stuff: -x86-rsb-stuff-libc-"
                                       "depths '" +
                                           depthTablePath() + "': " + T.Error,
                                       DS_Error));
    return nullptr;
  }
  return &T;
}

std::optional<LibraryDepth> rsbstuff::libraryDepth(StringRef Name,
                                                   LLVMContext &Ctx) {
  const Table *T = loadedTable(Ctx);
  if (!T)
    return std::nullopt;
  auto It = T->Functions.find(Name);
  return It == T->Functions.end() ? std::nullopt : It->second;
}

bool rsbstuff::isTableListedFunction(StringRef Name, LLVMContext &Ctx) {
  const Table *T = loadedTable(Ctx);
  return T && T->Functions.contains(Name);
}

bool rsbstuff::isTableLibraryFunction(StringRef Name, LLVMContext &Ctx) {
  return libraryDepth(Name, Ctx).has_value();
}
