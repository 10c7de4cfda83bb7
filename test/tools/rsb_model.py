#!/usr/bin/env python3
"""Reference model of the call depth counter (the one place it is written).

The counter is a 64-bit word that starts at 0x8000000000000000. A counted
call shifts it right arithmetically by 5, a return through the thunk shifts it
left by 5; when that shift leaves zero the thunk refills the RSB and sets the
counter to -1 (all ones: credit for 12 returns without calls). A reset
(__rsb_reset_depth after code the counter cannot see, a signal handler's
entry and exit) sets it back to the start value: no credit, but a counted
call and its return still balance.

Usage:
  rsb_model.py predict EVENTS      EVENTS is a string of 'c' (call), 'r'
                                   (return) and 'x' (reset); prints the
                                   predicted statistics.
  rsb_model.py recursion D         statistics of D nested calls then D returns.
  rsb_model.py check-recursion D   reads a program's output line
                                   "calls=.. returns=.. refills=.. depth=0x.."
                                   from stdin and compares it with the model.
  rsb_model.py check EVENTS        the same for any string of events.
"""
import re
import sys

MASK = (1 << 64) - 1
START = 1 << 63
SHIFT = 5


def sar(value):
    """Arithmetic shift right of a 64-bit two's complement word."""
    if value & START:
        return ((value >> SHIFT) | (MASK << (64 - SHIFT))) & MASK
    return value >> SHIFT


def simulate(events, counter=START):
    stats = {"calls": 0, "returns": 0, "refills": 0}
    for event in events:
        if event == "c":
            counter = sar(counter)
            stats["calls"] += 1
        elif event == "r":
            counter = (counter << SHIFT) & MASK
            stats["returns"] += 1
            if counter == 0:
                stats["refills"] += 1
                counter = MASK
        elif event == "x":
            counter = START
        else:
            raise ValueError("event must be 'c', 'r' or 'x', not %r" % event)
    stats["depth"] = counter
    return stats


def recursion(depth):
    return simulate("c" * depth + "r" * depth)


def render(stats):
    return "calls=%d returns=%d refills=%d depth=0x%016x" % (
        stats["calls"], stats["returns"], stats["refills"], stats["depth"])


def parse(line):
    fields = dict(re.findall(r"(\w+)=(0x[0-9a-fA-F]+|\d+)", line))
    missing = {"calls", "returns", "refills", "depth"} - fields.keys()
    if missing:
        raise ValueError("missing %s in %r" % (sorted(missing), line))
    return {k: int(fields[k], 0) for k in ("calls", "returns", "refills",
                                          "depth")}


def check(what, expected, text):
    lines = [l for l in text.splitlines() if "refills=" in l]
    if len(lines) != 1:
        print("expected one statistics line, got %d" % len(lines))
        return 1
    measured = parse(lines[0])
    if measured != expected:
        print("MISMATCH %s\n  model:    %s\n  measured: %s" % (
            what, render(expected), render(measured)))
        return 1
    print("OK %s: %s" % (what, render(measured)))
    return 0


def check_recursion(depth, text):
    return check("depth %d" % depth, recursion(depth), text)


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    verb, arg = argv[1], argv[2]
    if verb == "predict":
        print(render(simulate(arg)))
    elif verb == "recursion":
        print(render(recursion(int(arg))))
    elif verb == "check-recursion":
        return check_recursion(int(arg), sys.stdin.read())
    elif verb == "check":
        return check("events %s" % arg, simulate(arg), sys.stdin.read())
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
