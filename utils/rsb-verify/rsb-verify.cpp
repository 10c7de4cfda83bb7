//===- rsb-verify.cpp - Check an rsb-stuff build's call depth accounting --===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// rsb-verify checks statically that a built program keeps rsb-stuff's
// accounting. It reads ELF executables, shared objects and relocatable
// objects (with their symbol tables; archives are refused: give their
// members) and fails closed: it exits 0 only when every input holds
// instrumented code and every check below holds. In a relocatable object,
// where every section starts at 0, each section is placed at its file
// offset and branches go where their relocations say.
//
// Why a tool of its own, built on LLVM's Object library and MC
// disassembler: a build's every binary goes through it, and decoding the
// machine code directly is tens of times faster than reading a
// disassembler's text. RSBVerify.h says how the code is decoded;
// Functions.cpp how the instrumented functions are found from their
// entries.
//
// Checks (Checks.cpp):
//
//   inputs   every input with code has at least one instrumented (or
//            elided) function, unless it is named by --allow-uninstrumented:
//            a program built without rsb-stuff is an error, not "0
//            violations" (an input without code, data only, passes);
//   defined  a linked executable or shared object does not reference an
//            `__rsb_entry.*` / `__rsb_tail.*` that nothing defines: weak
//            undefined, or strong and only in the static symbol table, a
//            call to it lands on address 0; strong and dynamic, another
//            input must define it (give the shared objects with the
//            program). Relocatable objects may leave them undefined: the
//            link supplies them. (GNU ld drops a weak undefined symbol from
//            a static executable: that case shows no symbol to check.)
//   prefix   the entry holds the accounting sequence and nothing else, and
//            either ends at f's start or jumps to it (a jump anywhere
//            else, the PLT included, is an error);
//   exits    f leaves only through the return thunk, the inline return
//            check or an accounted tail call; so do its split-off parts
//            (f.cold, f.__part.N: their own sections, typed or not), and
//            jumps between f and them are branches within f. Reported: a
//            `ret` (unless
//            right after `call __rsb_reset_depth` or `call
//            __rsb_tail_account[_flags]`, the form of XRay's exit sleds, or
//            ending the inline check `shlq $5, %fs:...; je
//            __rsb_refill_return; ret` of the default in-place check,
//            with no branch of f landing on its `je` or `ret`), `ret $n`,
//            `iret`, `lret`, `sysret`, far jumps, an LVI-hardened return
//            (`pop %r; [lfence;] jmp *%r`), a `jmp *` that is not a
//            jump-table dispatch (its target loaded with a scaled index, PIC
//            `movslq`+`add` tables included), not a tail call right after
//            those helpers, not `jmp *%r11` right after the check that the
//            target carries an accounting entry's mark (`cmpq
//            __rsb_prefix_mark(%rip)`, counted indirect tail calls; no
//            branch of f may land inside that check) and not in a function
//            whose label addresses are taken (computed goto), and a direct
//            jump out of f (a tail call) that goes neither to an
//            instrumented function's start nor to the start of a
//            `__rsb_tail.*` entry or of `__rsb_reset_depth` (which leaves
//            no credit for the `ret` that ends f's call: after a tail
//            call's callee was called from a frame) nor comes right after
//            those helpers (the red zone may be stepped over around the
//            helper's call) nor is `jmp __llvm_retpoline_r11` right after
//            the mark check (the counted indirect tail call under
//            -mretpoline);
//   counts   every count in f's body is matched by a call whose callee returns
//            through the counter's check. A `sarq $5, %fs:...` (on any constant
//            offset that an entry of the input uses, or with a register in the
//            address; another offset is a thread-local variable of the
//            program) must be followed, after at most the statistics build's
//            `incq %fs:...` and the initial-exec load of its offset, by a call
//            that is either `call *%r11` (or `call __llvm_retpoline_r11`)
//            reached only from the last `je` of a whole mark check (no other
//            direct branch lands on the `sarq` or the call, the code before the
//            `sarq` does not fall into it, no branch enters the check: counted
//            indirect calls; a switch's jump through its table is trusted not
//            to land there, as in the sequences the checks above look at), or a
//            call through a table: `call *mem`, or a call of the register (%r11
//            for the retpoline) that a `movq mem` sets on every path through f
//            to the call, where mem is `table(,%i,8)`, `table(%rip)` or
//            `d(%base,%i,8)` with %base set on every path to `leaq table(%rip)`
//            (`movl $table` in a non-PIE executable). The table must be a data
//            symbol in a read-only section (.data.rel.ro included) whose every
//            8-byte word is an instrumented function's start, as its
//            relocations (a relative dynamic one, packed or not, in a PIE or
//            shared object; a symbol that is neither weak nor undefined in an
//            object) or, in a non-PIE executable, its bytes say. A path from
//            f's start or from outside f and a call (for the registers it
//            clobbers) defeat the proof; a jump within f through a switch's
//            table goes where the table says (the dispatch forms clang emits),
//            one through a table it cannot read or a computed goto anywhere in
//            f. `call __rsb_count_marked_r11` (the runtime's shared check,
//            which counts) must be followed by `je` to `call *%r11` (or the
//            retpoline's call) that no other branch reaches and no code falls
//            into, with no branch landing on the `je`;
//   tails    no `jmp` lands on an accounting entry (that would count a call
//            that never returns separately), and each tail alias
//            `__rsb_tail.g` (which tail calls are accepted to by name) jumps
//            to the start of an instrumented function (`[endbr64] jmp g`,
//            in g's prefix or out of line) or first calls the reset or the
//            accounting helper (rsb-ld's fallback, an elided g's stub);
//   inside   no branch from outside f (other than its split-off parts such
//            as f.cold; never a resolver) lands anywhere in f but at its
//            start, so f's code is only reached through the entry or f
//            itself, and no branch lands in f's entry but at its first
//            byte (past it, a piece of the sequence may count with %r11
//            not loaded, pop the return address, or not count);
//   early    in a static program (no PT_INTERP; an executable, or a
//            static PIE with DF_1_PIE), which runs its resolvers before it
//            has a thread pointer, and does not start in the runtime's
//            `__rsb_start` (which makes one first; rsb-ld links static
//            executables so), no resolver reaches instrumented code, an
//            entry or the runtime's `__rsb_*` helpers through direct calls
//            and jumps (all of them touch the counter at %fs:);
//   required with --require-instrumented NAME[,NAME...] or
//            --require-instrumented-file FILE (one name a line, `#` starts a
//            comment): each named function that an input defines has an
//            entry there (names absent from every input, e.g. inlined away,
//            are fine, and so are IFUNC resolvers and IFUNC symbols).
//
// Not a violation: a call that skips an entry (to the start of f, to
// __rsb_tail.f, through the PLT to a name another input instruments) is
// not counted, and an under-count costs a refill, never an underflow. The
// pass never emits one from an instrumented function without a credit
// reset after it (inline assembly does; so does a link that lost an
// entry), so --list notes those. IFUNC resolvers (IFUNC symbols' values,
// IRELATIVE relocations' targets) are uninstrumented on purpose: plain
// code, never counted as instrumented.
//
// Exit status 0 when every check holds, 1 with one line per violation
// ("file: address symbol: message", or "file: message") otherwise, 2 for a
// wrong command line. --list prints the instrumented and elided functions,
// the resolvers and the notes,
// --sizes the bytes each kind of accounting sequence takes (Sizes.cpp).
//
//===----------------------------------------------------------------------===//

#include "RSBVerify.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/LineIterator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace rsbverify;

static cl::OptionCategory Category("rsb-verify options");
static cl::list<std::string> Files(cl::Positional, cl::OneOrMore,
                                   cl::desc("<file>..."), cl::cat(Category));
static cl::opt<bool> List("list",
                          cl::desc("Print the instrumented and elided "
                                   "functions, the IFUNC resolvers, and "
                                   "notes on safe code the pass does not "
                                   "emit (calls that skip an entry)"),
                          cl::cat(Category));
static cl::opt<bool> Sizes("sizes",
                           cl::desc("Print the sequences of each kind the "
                                    "accounting adds and their bytes"),
                           cl::cat(Category));
static cl::list<std::string> AllowUninstrumented(
    "allow-uninstrumented", cl::value_desc("file"),
    cl::desc("The file (one of the inputs) may hold no instrumented "
             "function, e.g. a library built without rsb-stuff; the other "
             "checks still apply"),
    cl::cat(Category));
static cl::list<std::string> RequireInstrumented(
    "require-instrumented", cl::value_desc("name[,name...]"),
    cl::desc("Fail when one of these functions is defined in an input "
             "without being instrumented there"),
    cl::cat(Category));
static cl::list<std::string> RequireInstrumentedFile(
    "require-instrumented-file", cl::value_desc("file"),
    cl::desc("The same, names read from the file (one a line, '#' starts a "
             "comment)"),
    cl::cat(Category));

[[noreturn]] static void fail(const Twine &Message) {
  errs() << Message << "\n";
  exit(1);
}

[[noreturn]] static void usageError(const Twine &Message) {
  errs() << "rsb-verify: error: " << Message << "\n";
  exit(2);
}

/// The names of --require-instrumented and of the files of
/// --require-instrumented-file.
static StringSet<> requiredNames() {
  StringSet<> Names;
  for (StringRef Value : RequireInstrumented) {
    SmallVector<StringRef, 8> Parts;
    Value.split(Parts, ',');
    for (StringRef Name : Parts)
      if (!Name.trim().empty())
        Names.insert(Name.trim());
  }
  for (const std::string &Path : RequireInstrumentedFile) {
    auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      fail("rsb-verify: " + Path + ": " + Buffer.getError().message());
    for (line_iterator Line(**Buffer, /*SkipBlanks=*/true); !Line.is_at_eof();
         ++Line) {
      StringRef Name = Line->split('#').first.trim();
      if (!Name.empty())
        Names.insert(Name);
    }
  }
  return Names;
}

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  cl::HideUnrelatedOptions(Category);
  cl::ParseCommandLineOptions(
      argc, argv, "Check the call depth accounting of rsb-stuff binaries.\n");

  StringSet<> Inputs, Allowed;
  for (const std::string &Path : Files)
    Inputs.insert(realPath(Path));
  std::vector<std::string> Strangers;
  for (const std::string &Path : AllowUninstrumented) {
    Allowed.insert(realPath(Path));
    if (!Inputs.contains(realPath(Path)))
      Strangers.push_back(realPath(Path));
  }
  if (!Strangers.empty())
    usageError("--allow-uninstrumented " + *llvm::min_element(Strangers) +
               " is not one of the inputs");
  StringSet<> Required = requiredNames();

  auto Decoder = X86Decoder::create();
  if (!Decoder)
    fail("rsb-verify: " + toString(Decoder.takeError()));
  std::vector<std::unique_ptr<Binary>> Binaries;
  for (const std::string &Path : Files) {
    auto B = Binary::read(Path, **Decoder);
    if (!B)
      fail(toString(B.takeError()));
    findFunctions(**B);
    Binaries.push_back(std::move(*B));
  }

  Findings Found = verify(Binaries, Allowed, Required);
  if (List)
    for (const auto &B : Binaries) {
      std::vector<StringRef> Names;
      for (const Function &F : B->Functions)
        Names.push_back(F.Name);
      llvm::sort(Names);
      for (StringRef Name : Names)
        outs() << B->Path << ": instrumented " << Name << "\n";
      std::vector<std::string> Elided = B->Elided;
      llvm::sort(Elided);
      for (const std::string &Name : Elided)
        outs() << B->Path << ": elided " << Name << "\n";
      for (StringRef Name : B->resolverNames())
        outs() << B->Path << ": resolver " << Name << "\n";
    }
  if (List)
    for (const std::string &N : Found.Notes)
      outs() << N << "\n";
  if (Sizes)
    for (const auto &B : Binaries)
      printSizes(*B, outs());
  for (const std::string &E : Found.Violations)
    outs() << E << "\n";
  size_t Count = 0;
  for (const auto &B : Binaries)
    Count += B->Functions.size();
  outs() << "rsb-verify: " << Count << " instrumented functions, "
         << Found.Violations.size() << " violations\n";
  return Found.Violations.empty() ? 0 : 1;
}
