#!/usr/bin/env python3
"""flags-matrix: every flag set of flags-matrix.txt on every program of it.

For one cell (a row of the table and a program) the driver builds the
program twice, with plain clang-22/clang++-22 and with rsb-clang/rsb-clang++,
both with the row's flags (each source compiled alone with -c, then linked,
as a build system does; a shared library also gets -fPIC -shared). Then:

  ok                  both builds succeed; the two programs print the same
                      stdout and exit with the same status; rsb-verify
                      accepts the executable and the shared library; every
                      function defined by the objects compiled from the
                      program's sources that is in the binaries is
                      instrumented (has an `__rsb_entry.` accounting entry),
                      but IFUNC resolvers, which are not by design;
                      `rsb-check --fail-on-underflow` reports underflows=0
                      and the same output and exit status;
  ok foreign-underflows
                      as ok, but rsb-check runs with
                      --fail-on-underflow=instrumented: returns in code
                      rsb-stuff did not compile (a sanitizer's runtime
                      linked into the program) may underflow, as they do
                      in the plain build; none in the code it compiled;
  ok cet-note         also: the rsb objects and binaries carry the same
                      `x86 feature` property (IBT, SHSTK) as the plain ones,
                      and the rsb links (-z cet-report=warning) name no
                      input without it that the plain links do not;
  compile-error: RE   plain clang compiles every source; rsb-clang fails at
                      compile time with exit status 1 and a message matching
                      RE, and does not crash (no "PLEASE submit a bug report",
                      "Stack dump", "LLVM ERROR" or "due to signal");
  link-error: RE      plain clang builds the program; rsb-clang compiles
                      every source and its link fails the same clean way
                      with a message matching RE.

It prints one line per cell, "ROW PROGRAM: ok (seconds)" or
"ROW PROGRAM: FAIL [kind]: why" followed by the failing command and its
output, and exits 1 if any cell failed. The failure kinds: crash, missing
error, wrong error, build failed, wrong output, verifier violation,
not instrumented, underflows, cet property, timeout, harness (the plain
build or a tool failed: the table or the environment is wrong, not
rsb-stuff). The programs run with ASAN_OPTIONS=detect_leaks=0
(LeakSanitizer needs ptrace, which QEMU, the model's engine, does not
emulate) and LC_ALL=C.

Run one row on one program by hand (the files stay in --work):

  test/matrix/run_matrix.py --row O2 --program dso --work /tmp/mx

--docs FILE checks that FILE shows the table (between the flags-matrix
markers), --write-docs rewrites that section.
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
INPUTS = os.path.join(HERE, "Inputs")

# The programs: sources of the executable, of its shared library (built
# with -fPIC -shared and linked by the executable), C++ or not, extra link
# flags. "*" in the table means every program but attrs and all-args, which
# need the attribute from the row (-DATTR=...), ifunc and freestanding,
# which are for static links (freestanding for -nostdlib ones).
PROGRAMS = {
    "c-basic": dict(exe=["c-basic.c"]),
    "cxx-eh": dict(exe=["cxx-eh.cpp"], cxx=True),
    "dso": dict(exe=["dso-main.c"], dso=["dso-lib.c"]),
    "threads": dict(exe=["threads.c"], link=["-pthread"]),
    "signals": dict(exe=["signals.c"]),
    "attrs": dict(exe=["attrs-main.c"], dso=["attrs-lib.c"]),
    # Lazy binding's resolver would clobber argument registers the C
    # convention does not have (preserve_none's %r11): both builds bind now.
    # IFUNC resolvers that call instrumented code; static rows only there
    # their resolvers run before the C library sets up thread-local storage.
    "ifunc": dict(exe=["ifunc.c"]),
    # No C library (the row gives -ffreestanding -nostdlib): output and
    # exit through system calls.
    "freestanding": dict(exe=["freestanding.c"]),
    "all-args": dict(exe=["all-args-main.c"], dso=["all-args-lib.c"],
                     link=["-Wl,-z,now"], dso_link=["-Wl,-z,now"]),
}
STAR = ["c-basic", "cxx-eh", "dso", "threads", "signals"]
# LeakSanitizer needs ptrace, which QEMU (rsb-check's engine) does not
# emulate; both builds run with the same environment.
RUN_ENV = {"ASAN_OPTIONS": "detect_leaks=0", "LC_ALL": "C"}
CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump", "LLVM ERROR",
               "due to signal")
# FUNC symbols in the objects that are not functions of the program:
# rsb-stuff's entries and tail aliases; LLVM's retpoline thunks
# (-mretpoline), naked, whose `ret` is their indirect jump, left
# uninstrumented by design (docs/design.md); KCFI's `__cfi_f`, the type
# hash in front of f, which is never called.
NOT_PROGRAM_CODE = re.compile(r"__rsb_|__llvm_retpoline_|__cfi_")
OK_EXPECTATIONS = ("ok", "ok cet-note", "ok foreign-underflows")
DOCS_BEGIN = "<!-- flags-matrix table: generated from test/matrix/" \
             "flags-matrix.txt by test/matrix/run_matrix.py --write-docs -->"
DOCS_END = "<!-- end of flags-matrix table -->"


class Row:
    def __init__(self, group, name, flags, programs, expect, note):
        self.group, self.name, self.flags = group, name, flags
        self.programs, self.note = programs, note
        kind, _, regex = expect.partition(":")
        self.kind = kind.strip()
        self.regex = regex.strip()
        self.cet = self.foreign = False
        if self.kind.startswith("ok"):
            self.cet = self.kind.split()[1:] == ["cet-note"]
            self.foreign = self.kind.split()[1:] == ["foreign-underflows"]
            self.kind = "ok"


def read_table(path):
    rows, group = [], None
    with open(path) as f:
        for number, text in enumerate(f, 1):
            text = text.split("#", 1)[0].strip()
            if not text:
                continue
            header = re.fullmatch(r"\[([\w-]+)\]", text)
            if header:
                group = header.group(1)
                continue
            if not group:
                sys.exit("%s:%d: a row before the first [group]" % (path,
                                                                   number))
            cols = [c.strip() for c in text.split("|")]
            if len(cols) not in (4, 5):
                sys.exit("%s:%d: expected 'name | flags | programs | "
                         "expectation [| note]'" % (path, number))
            programs = STAR if cols[2] == "*" else cols[2].split()
            for p in programs:
                if p not in PROGRAMS:
                    sys.exit("%s:%d: unknown program %s" % (path, number, p))
            row = Row(group, cols[0], cols[1].split(), programs, cols[3],
                      cols[4] if len(cols) == 5 else "")
            if row.kind not in ("ok", "compile-error", "link-error") or (
                    row.kind != "ok") != bool(row.regex) or (
                    row.kind == "ok" and cols[3] not in OK_EXPECTATIONS):
                sys.exit("%s:%d: expectation must be one of %s, "
                         "'compile-error: RE' or 'link-error: RE'"
                         % (path, number, ", ".join(
                             repr(e) for e in OK_EXPECTATIONS)))
            rows.append(row)
    names = [r.name for r in rows]
    if len(set(names)) != len(names):
        sys.exit("%s: row names must be unique" % path)
    return rows


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def render_docs(rows):
    out = [DOCS_BEGIN, "", "| flags | programs | outcome | note |",
           "| --- | --- | --- | --- |"]
    for r in rows:
        programs = "all" if r.programs == STAR else ", ".join(r.programs)
        if r.kind == "ok":
            outcome = "works"
        else:
            outcome = "error at %s time (`%s`)" % (r.kind.split("-")[0],
                                                    r.regex)
        out.append("| `%s` | %s | %s | %s |" % (" ".join(r.flags), programs,
                                                outcome, r.note))
    out += ["", DOCS_END]
    return "\n".join(out)


def docs_section(text):
    begin, end = text.find(DOCS_BEGIN), text.find(DOCS_END)
    if begin < 0 or end < begin:
        return None
    return begin, end + len(DOCS_END)


class CellFailure(Exception):
    def __init__(self, kind, why, detail=""):
        super().__init__(why)
        self.kind, self.why, self.detail = kind, why, detail


class Cell:
    """One row built, run and checked on one program, in WORK/ROW/PROGRAM."""

    def __init__(self, args, row, program):
        self.args, self.row, self.name = args, row, program
        self.program = PROGRAMS[program]
        self.dir = os.path.join(args.work, row.name, program)
        self.env = dict(os.environ, **RUN_ENV)
        self.objects, self.link_output = {}, {}

    def tool(self, name):
        return os.path.join(self.args.llvm_bin, name)

    def compiler(self, kind):
        cxx = self.program.get("cxx")
        if kind == "plain":
            return [self.tool("clang++" if cxx else "clang")]
        return [os.path.join(self.args.build, "bin",
                             "rsb-clang++" if cxx else "rsb-clang")]

    def run(self, cmd, timeout=None, **kw):
        try:
            return subprocess.run(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True,
                                  errors="replace", cwd=self.dir,
                                  env=self.env, timeout=timeout or
                                  self.args.timeout, **kw)
        except subprocess.TimeoutExpired:
            raise CellFailure("timeout", "%s did not finish in %d s" % (
                os.path.basename(cmd[0]), timeout or self.args.timeout),
                " ".join(cmd))

    @staticmethod
    def detail(cmd, out):
        text = (out.stdout + out.stderr).strip().splitlines()
        if len(text) > 30:
            text = text[:12] + ["..."] + text[-15:]
        return "$ %s\n%s" % (" ".join(cmd), "\n".join(text))

    def extra_link_flags(self):
        return ["-Wl,-z,cet-report=warning"] if self.row.cet else []

    def build(self, kind, stop_at=None):
        """Compiles and links one build; returns (step, cmd, result) of the
        first step that fails, or None. stop_at="compile" only compiles."""
        out = os.path.join(self.dir, kind)
        os.makedirs(out, exist_ok=True)
        cc, flags = self.compiler(kind), self.row.flags
        self.objects[kind] = []
        steps = []
        for group, pic in (("dso", ["-fPIC"]), ("exe", [])):
            objs = []
            for src in self.program.get(group, []):
                obj = os.path.join(out, os.path.splitext(src)[0] + ".o")
                steps.append(("compile", cc + flags + pic + [
                    "-c", os.path.join(INPUTS, src), "-o", obj]))
                objs.append(obj)
            self.objects[kind] += objs
            if stop_at == "compile" or not objs:
                continue
            if group == "dso":
                steps.append(("link", cc + flags + pic + ["-shared"] + objs +
                              self.program.get("dso_link", []) +
                              self.extra_link_flags() +
                              ["-o", os.path.join(out, "libmx.so")]))
            else:
                lib = ([os.path.join(out, "libmx.so"), "-Wl,-rpath," + out]
                       if self.program.get("dso") else [])
                steps.append(("link", cc + flags + objs + lib +
                              self.program.get("link", []) +
                              self.extra_link_flags() +
                              ["-o", os.path.join(out, "prog")]))
        self.link_output[kind] = []
        for step, cmd in steps:
            result = self.run(cmd)
            if step == "link":
                self.link_output[kind].append(result.stdout + result.stderr)
            if result.returncode != 0:
                return step, cmd, result
        return None

    def binaries(self, kind):
        out = os.path.join(self.dir, kind)
        files = [os.path.join(out, "prog")]
        if self.program.get("dso"):
            files.append(os.path.join(out, "libmx.so"))
        return files

    # --- the checks ----------------------------------------------------

    def check_clean_error(self, step, cmd, result):
        text = result.stdout + result.stderr
        crash = [m for m in CRASH_MARKS if m in text]
        if result.returncode < 0 or crash:
            raise CellFailure("crash", "rsb %s crashed (%s) instead of a "
                              "clear error" % (step, ", ".join(crash) or
                                               "signal %d" %
                                               -result.returncode),
                              self.detail(cmd, result))
        if result.returncode != 1:
            raise CellFailure("wrong error", "rsb %s exit status %d, not 1"
                              % (step, result.returncode),
                              self.detail(cmd, result))
        if not re.search(self.row.regex, text):
            raise CellFailure("wrong error", "rsb %s failed without a "
                              "message matching /%s/" % (step, self.row.regex),
                              self.detail(cmd, result))

    def check_error_row(self):
        step = self.row.kind.split("-")[0]
        failed = self.build("plain",
                            stop_at="compile" if step == "compile" else None)
        if failed:
            raise CellFailure("harness", "plain clang-22 %s fails" %
                              failed[0], self.detail(failed[1], failed[2]))
        failed = self.build("rsb",
                            stop_at="compile" if step == "compile" else None)
        if not failed:
            raise CellFailure("missing error", "rsb-clang %s; expected a "
                              "%s error matching /%s/" % (
                                  "compiled every source" if step ==
                                  "compile" else "built the program", step,
                                  self.row.regex))
        if failed[0] != step:
            self.check_clean_error(*failed)  # reports crashes first
            raise CellFailure("wrong error", "rsb build failed at %s time, "
                              "expected %s time" % (failed[0], step),
                              self.detail(failed[1], failed[2]))
        self.check_clean_error(*failed)

    def run_program(self, kind, prefix=()):
        cmd = list(prefix) + [os.path.join(self.dir, kind, "prog")]
        result = self.run(cmd, timeout=self.args.check_timeout
                          if prefix else None)
        return cmd, result

    def check_output(self):
        _, plain = self.run_program("plain")
        if plain.returncode < 0:
            raise CellFailure("harness", "the plain program died with "
                              "signal %d" % -plain.returncode)
        cmd, rsb = self.run_program("rsb")
        if rsb.returncode < 0:
            raise CellFailure("crash", "the rsb program died with signal %d"
                              % -rsb.returncode, self.detail(cmd, rsb))
        if (rsb.stdout, rsb.returncode) != (plain.stdout, plain.returncode):
            raise CellFailure("wrong output", "rsb program: exit %d, stdout "
                              "%r; plain: exit %d, stdout %r" % (
                                  rsb.returncode, rsb.stdout,
                                  plain.returncode, plain.stdout),
                              self.detail(cmd, rsb))
        self.expected = plain

    def check_verifier(self):
        cmd = [os.path.join(self.args.build, "bin", "rsb-verify"),
               "--list"] + self.binaries("rsb")
        result = self.run(cmd)
        if result.returncode != 0:
            kind = ("verifier violation" if "violations" in result.stdout
                    else "harness")
            lines = [l for l in result.stdout.splitlines()
                     if not re.search(r": (instrumented|elided|resolver) "
                                      r"|: note: ", l)]
            raise CellFailure(kind, "rsb-verify: %s" % (
                lines[-1] if lines else "exit %d" % result.returncode),
                "$ %s\n%s%s" % (" ".join(cmd), "\n".join(lines[:20]),
                                result.stderr))
        self.instrumented = {
            normalize(l.split(": instrumented ", 1)[1])
            for l in result.stdout.splitlines() if ": instrumented " in l}
        # IFUNC resolvers are left uninstrumented on purpose.
        self.resolvers = {
            normalize(l.split(": resolver ", 1)[1])
            for l in result.stdout.splitlines() if ": resolver " in l}

    def defined_functions(self, files):
        """The functions (FUNC symbols; text symbols of bitcode) defined
        in ELF or bitcode files, but NOT_PROGRAM_CODE."""
        bitcode = [f for f in files if is_bitcode(f)]
        elf = [f for f in files if f not in bitcode]
        reads = []
        if bitcode:
            reads.append(([self.tool("llvm-nm"), "--defined-only",
                           "--format=posix"] + bitcode,
                          lambda c: len(c) >= 2 and c[1] in "TtWw" and c[0]))
        if elf:
            reads.append(([self.tool("llvm-readelf"), "-sW"] + elf,
                          lambda c: (len(c) >= 8 and c[3] == "FUNC" and
                                     c[6] != "UND" and c[7].split("@")[0])))
        names = set()
        for cmd, pick in reads:
            result = self.run(cmd)
            if result.returncode != 0:
                raise CellFailure("harness", "%s failed" % cmd[0],
                                  self.detail(cmd, result))
            for line in result.stdout.splitlines():
                name = pick(line.split())
                if name and not NOT_PROGRAM_CODE.match(name):
                    names.add(normalize(name))
        return names

    def check_instrumented(self):
        wanted = self.defined_functions(self.objects["rsb"])
        binaries = self.binaries("rsb")
        present = wanted & self.defined_functions(binaries)
        if not present:
            raise CellFailure("harness", "none of the program's functions "
                              "found in its binaries")
        # Once rsb-verify has --require-instrumented NAME,... this line
        # becomes a run of it on `present` (self.binaries("rsb")).
        missing = sorted(present - self.instrumented - self.resolvers)
        if missing:
            raise CellFailure("not instrumented", "%d of %d functions have "
                              "no accounting entry: %s" % (
                                  len(missing), len(present),
                                  " ".join(missing)))

    def check_underflows(self):
        report = os.path.join(self.dir, "rsb-check.txt")
        fail = "--fail-on-underflow" + ("=instrumented" if self.row.foreign
                                        else "")
        checker = [os.path.join(self.args.build, "bin", "rsb-check"), fail,
                   "--list-underflows", "-o", report, "--"]
        cmd, result = self.run_program("rsb", checker)
        text = read(report)
        total = re.search(r"^rsb-check: total: .* underflows=(\d+) .*"
                          r"foreign-underflows=(\d+) unmodelled=(\d+) ",
                          text, re.M)
        if not total:
            raise CellFailure("harness", "rsb-check wrote no total",
                              self.detail(cmd, result) + "\n" + text)
        underflows, foreign = int(total.group(1)), int(total.group(2))
        self.foreign_underflows = foreign
        if int(total.group(3)):
            raise CellFailure("harness", "rsb-check could not model a "
                              "program the cell ran",
                              self.detail(cmd, result) + "\n" + text)
        if underflows - (foreign if self.row.foreign else 0):
            lines = text.strip().splitlines()
            raise CellFailure("underflows", "rsb-check: underflows=%d "
                              "foreign-underflows=%d" % (underflows, foreign),
                              "$ %s\n%s" % (
                                  " ".join(cmd), "\n".join(lines[-30:])))
        if (result.stdout, result.returncode) != (self.expected.stdout,
                                                  self.expected.returncode):
            raise CellFailure("wrong output", "under rsb-check: exit %d, "
                              "stdout %r" % (result.returncode,
                                             result.stdout),
                              self.detail(cmd, result) + "\n" + text)
        self.steps = re.search(r"instructions=(\d+)", total.group(0))

    def cet_property(self, path):
        cmd = [self.tool("llvm-readelf"), "-n", path]
        result = self.run(cmd)
        found = re.search(r"x86 feature: (.*)", result.stdout)
        return found.group(1).strip() if found else "none"

    def check_cet(self):
        pairs = list(zip(self.objects["plain"], self.objects["rsb"])) + list(
            zip(self.binaries("plain"), self.binaries("rsb")))
        for plain, rsb in pairs:
            want, got = self.cet_property(plain), self.cet_property(rsb)
            if want != got:
                raise CellFailure("cet property", "%s has x86 feature %s, "
                                  "the plain build's %s" % (
                                      os.path.relpath(rsb, self.dir), got,
                                      want))
        # The binaries lose the property anyway when the C library's start
        # files lack it (Debian's do); the linker names every input without
        # it, and the rsb link must not name more than the plain one.
        plain = self.cet_reports("plain")
        added = sorted(self.cet_reports("rsb") - plain)
        if added:
            raise CellFailure("cet property", "the rsb link adds inputs "
                              "without IBT/SHSTK: %s" % "; ".join(added))

    def cet_reports(self, kind):
        out = os.path.join(self.dir, kind)
        lines = set()
        for text in self.link_output[kind]:
            for line in text.splitlines():
                if "cet-report" in line or "SHSTK propert" in line:
                    lines.add(line.replace(out + "/", "").strip())
        return lines

    def check(self):
        if os.path.isdir(self.dir):
            shutil.rmtree(self.dir)
        os.makedirs(self.dir)
        if self.row.kind != "ok":
            return self.check_error_row()
        failed = self.build("plain")
        if failed:
            raise CellFailure("harness", "plain clang-22 %s fails" %
                              failed[0], self.detail(failed[1], failed[2]))
        failed = self.build("rsb")
        if failed:
            step, cmd, result = failed
            text = result.stdout + result.stderr
            crashed = result.returncode < 0 or any(m in text
                                                   for m in CRASH_MARKS)
            raise CellFailure("crash" if crashed else "build failed",
                              "rsb %s %s" % (step, "crashed" if crashed else
                                             "fails"),
                              self.detail(cmd, result))
        if self.row.cet:
            self.check_cet()
        self.check_output()
        self.check_verifier()
        self.check_instrumented()
        if not self.args.no_rsb_check:
            self.check_underflows()


def is_bitcode(path):
    with open(path, "rb") as f:
        return f.read(4) == b"BC\xc0\xde"


def normalize(name):
    """ThinLTO renames promoted local functions f to f.llvm.<hash>."""
    return re.sub(r"\.llvm\.\d+$", "", name)


def run_cell(args, row, program):
    start = time.time()
    cell = Cell(args, row, program)
    try:
        cell.check()
    except CellFailure as failure:
        detail = "".join("    " + l + "\n" for l in
                         failure.detail.splitlines())
        return False, "%s %s: FAIL [%s]: %s (%.1fs)\n%s" % (
            row.name, program, failure.kind, failure.why,
            time.time() - start, detail)
    steps = getattr(cell, "steps", None)
    note = ""
    if steps:
        note = ", %s instructions under rsb-check" % steps.group(1)
        if cell.foreign_underflows:
            note += ", %d foreign-underflows (in code rsb-stuff did not " \
                "compile)" % cell.foreign_underflows
    elif row.kind == "ok":
        note = ", without rsb-check"
    return True, "%s %s: ok (%.1fs%s)\n" % (row.name, program,
                                           time.time() - start, note)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--table", default=os.path.join(HERE,
                                                        "flags-matrix.txt"),
                        help="the table (default: %(default)s)")
    parser.add_argument("--build", default=os.path.join(ROOT, "build"),
                        help="rsb-stuff build directory (default: %(default)s)")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                        help="plain clang and the LLVM tools "
                        "(default: %(default)s)")
    parser.add_argument("--work", help="directory for the builds "
                        "(ROW/PROGRAM/{plain,rsb} under it)")
    parser.add_argument("--group", default=".*",
                        help="regex: groups of rows to run ([name] lines)")
    parser.add_argument("--row", default=".*", help="regex: rows to run")
    parser.add_argument("--program", default=".*",
                        help="regex: programs to run")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="cells run at the same time (default: 1)")
    parser.add_argument("--timeout", type=int, default=120,
                        help="seconds per build step or program run")
    parser.add_argument("--check-timeout", type=int, default=600,
                        help="seconds per rsb-check run")
    parser.add_argument("--no-rsb-check", action="store_true",
                        help="leave out the rsb-check runs, which take most "
                        "of the time (when working on the other checks; "
                        "the test suite always runs them)")
    parser.add_argument("--docs", help="check that this markdown file shows "
                        "the table and that each group has its GROUP.test")
    parser.add_argument("--write-docs", action="store_true",
                        help="with --docs: rewrite its table section")
    args = parser.parse_args()
    # The cells run commands from their own directories.
    args.build = os.path.abspath(args.build)
    rows = read_table(args.table)

    if args.docs:
        untested = [g for g in dict.fromkeys(r.group for r in rows)
                    if "--group %s\n" % g not in read(os.path.join(
                        HERE, g + ".test"))]
        if untested:
            sys.exit("flags-matrix: no test/matrix/GROUP.test runs the "
                     "group(s) %s" % ", ".join(untested))
        text = read(args.docs)
        section = docs_section(text)
        if section is None:
            sys.exit("%s: no flags-matrix section (%s ... %s)" % (
                args.docs, DOCS_BEGIN, DOCS_END))
        table = render_docs(rows)
        if text[section[0]:section[1]] == table:
            print("flags-matrix: %s is in sync with %s" % (args.docs,
                                                          args.table))
            return 0
        if args.write_docs:
            with open(args.docs, "w") as f:
                f.write(text[:section[0]] + table + text[section[1]:])
            print("flags-matrix: rewrote the table in %s" % args.docs)
            return 0
        sys.exit("flags-matrix: the table in %s differs from %s; run %s "
                 "--docs %s --write-docs" % (args.docs, args.table,
                                             sys.argv[0], args.docs))

    if not args.work:
        parser.error("--work is required to run cells")
    cells = [(r, p) for r in rows if re.fullmatch(args.group, r.group)
             and re.fullmatch(args.row, r.name)
             for p in r.programs if re.fullmatch(args.program, p)]
    if not cells:
        sys.exit("flags-matrix: no cell matches --row %s --program %s" % (
            args.row, args.program))
    args.work = os.path.abspath(args.work)
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for ok, text in pool.map(lambda c: run_cell(args, *c), cells):
            failures += not ok
            sys.stdout.write(text)
            sys.stdout.flush()
    print("flags-matrix: %d cells, %d failed" % (len(cells), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
