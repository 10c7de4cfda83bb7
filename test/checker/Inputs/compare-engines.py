#!/usr/bin/env python3
"""Runs one program under both rsb-check engines and compares their totals.

usage: compare-engines.py RSB_CHECK [--libc] [--profile] -- PROGRAM [ARGS...]

Prints "agree: FIELD=VALUE ..." with the compared fields of the total line
and exits 0 when both engines counted the same, or prints both lines and
exits 1. The program's output and exit status must be the same too.

With --profile both engines run with --refill-profile, and the profiles of
the processes (the ranked loss sites and their counts) must be the same;
they are printed after the agree line, without pids.

Without --libc every field is compared: for a program without the C
library, QEMU and the CPU execute the same instructions. With --libc the
fields that the C library's start-up changes are left out: under QEMU the
dynamic loader finds no vDSO and QEMU's CPUID, and takes other paths with
other calls (about 50 calls and returns more on the CPU); what the program
itself does (underflows, refills, traps, the model's margin at a refill,
threads and processes) must still agree exactly.
"""
import re
import subprocess
import sys

STARTUP_FIELDS = ("returns", "calls", "correct", "mispredicted",
                  "instructions")


def profile_lines(report):
    """The refill profile's lines of a report, without pids."""
    lines, in_profile = [], False
    for line in report.splitlines():
        if " refill profile: " in line:
            in_profile = True
            lines.append(re.sub(r"^rsb-check: pid \d+ ", "", line))
        elif in_profile and line.startswith("rsb-check:   "):
            lines.append(line[len("rsb-check:   "):])
        else:
            in_profile = False
    return lines


def total(rsb_check, engine, program, options):
    result = subprocess.run([rsb_check, "--engine=" + engine] + options +
                            ["--"] + program,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    lines = [l for l in result.stderr.splitlines()
             if l.startswith("rsb-check: total: ")]
    if len(lines) != 1:
        sys.exit("%s engine wrote no total:\n%s" % (engine, result.stderr))
    fields = dict(re.findall(r"([\w-]+)=(\S+)", lines[0]))
    return (fields, (result.stdout, result.returncode), lines[0],
            profile_lines(result.stderr))


def main():
    args = sys.argv[1:]
    rsb_check, libc, options = args.pop(0), False, []
    if args and args[0] == "--libc":
        libc = args.pop(0) == "--libc"
    if args and args[0] == "--profile":
        args.pop(0)
        options = ["--refill-profile"]
    if not args or args.pop(0) != "--" or not args:
        sys.exit(__doc__)
    qemu, qemu_run, qemu_line, qemu_profile = total(rsb_check, "qemu", args,
                                                    options)
    ptrace, ptrace_run, ptrace_line, ptrace_profile = total(
        rsb_check, "ptrace", args, options)
    compared = [f for f in qemu if not (libc and f in STARTUP_FIELDS)]
    if qemu_run != ptrace_run:
        print("the program behaved differently: qemu %r, ptrace %r" %
              (qemu_run, ptrace_run))
        return 1
    if any(qemu.get(f) != ptrace.get(f) for f in compared) or \
            set(qemu) != set(ptrace):
        print("engines differ:\n  qemu:   %s\n  ptrace: %s" %
              (qemu_line, ptrace_line))
        return 1
    if qemu_profile != ptrace_profile:
        print("engines' refill profiles differ:\n  qemu:\n    %s\n"
              "  ptrace:\n    %s" % ("\n    ".join(qemu_profile),
                                    "\n    ".join(ptrace_profile)))
        return 1
    print("agree: " + " ".join("%s=%s" % (f, qemu[f]) for f in compared))
    for line in qemu_profile:
        print("profile: " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
