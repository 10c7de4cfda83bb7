#!/usr/bin/env python3
"""Runs one program under both rsb-check engines and compares their totals.

usage: compare-engines.py RSB_CHECK [--libc] -- PROGRAM [ARGS...]

Prints "agree: FIELD=VALUE ..." with the compared fields of the total line
and exits 0 when both engines counted the same, or prints both lines and
exits 1. The program's output and exit status must be the same too.

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


def total(rsb_check, engine, program):
    result = subprocess.run([rsb_check, "--engine=" + engine, "--"] + program,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    lines = [l for l in result.stderr.splitlines()
             if l.startswith("rsb-check: total: ")]
    if len(lines) != 1:
        sys.exit("%s engine wrote no total:\n%s" % (engine, result.stderr))
    fields = dict(re.findall(r"([\w-]+)=(\S+)", lines[0]))
    return fields, (result.stdout, result.returncode), lines[0]


def main():
    args = sys.argv[1:]
    rsb_check, libc = args.pop(0), False
    if args and args[0] == "--libc":
        libc = args.pop(0) == "--libc"
    if not args or args.pop(0) != "--" or not args:
        sys.exit(__doc__)
    qemu, qemu_run, qemu_line = total(rsb_check, "qemu", args)
    ptrace, ptrace_run, ptrace_line = total(rsb_check, "ptrace", args)
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
    print("agree: " + " ".join("%s=%s" % (f, qemu[f]) for f in compared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
