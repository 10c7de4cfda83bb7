/*===- main.c - rsb-check: follow every call and ret on a model RSB -------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * rsb-check [options] -- PROGRAM [ARGS...]
 *
 * Runs PROGRAM and replays every call and ret it executes (its own code, its
 * libraries and the dynamic loader, in every thread, child process and
 * program it executes) on a model of a 16-entry Return Stack Buffer. Each
 * ret is classified by what the model would have predicted:
 *
 *   underflow     the model was empty: a Skylake-era CPU would have
 *                 predicted from the BTB, which an attacker can train
 *                 (Retbleed); this is what rsb-stuff exists to prevent
 *   trap          an int3 the runtime's refill planted (harmless)
 *   mispredicted  some other address
 *   correct       the address the ret went to
 *
 * It also notices the runtime's refills (calls inside __rsb_return_thunk,
 * __rsb_tail_account, __rsb_tail_account_flags and __rsb_refill_return)
 * and records how many
 * entries the model still held at each: the runtime's safety margin, as
 * measured rather than as designed, and the refills an exact counter
 * (one that counts every call and return) would need; --refill-profile
 * ranks the credit losses that cost the refills beyond those. The exit
 * status is the program's, so it can wrap test commands, unless
 * --fail-on-underflow finds one (then 3).
 *
 * Two engines run the program and drive one model:
 *   qemu       (the default) the program runs under qemu-x86_64 with a TCG
 *              plugin that sees each call and ret execute: hundreds of
 *              millions of instructions a second, real test suites
 *   ptrace     single-steps the program on the real CPU, about 40,000
 *              instructions a second: for what QEMU cannot emulate, and as
 *              the second opinion test/checker/engines-agree.test asks for
 *
 * The pieces:
 *   model.c    the RSB model, refills, the exact counter, the underflow
 *              list (both engines)
 *   profile.c  the refill profile: the program's counter, a shadow call
 *              stack, credit losses and the excess refills they cost
 *   sites.c    the index of the underflow and loss lists
 *   decode.c   just enough x86-64 decoding to find calls, returns and the
 *              writes that update the runtime's counter
 *   symbols.c  /proc/PID/maps and ELF symbol tables: the runtime's thunks,
 *              the roles of rsb-stuff's code, names for the report
 *   ptrace.c   the ptrace engine
 *   qemu.c     the QEMU engine's side in rsb-check: starts the program,
 *              collects the records
 *   plugin.c   the QEMU engine's plugin (rsb-check-qemu.so), with
 *   record.c   a process's counts in a file that outlives the process
 *   launch.c   the QEMU command line that runs a program
 *   report.c   a process's report; counts.c the counts and their line
 *   alloc.c    allocation that cannot fail
 *   main.c     options, choosing the engine
 *
 *===----------------------------------------------------------------------===*/

#include "options.h"

#include "counts.h"
#include "ptrace.h"
#include "qemu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
  fputs("usage: rsb-check [options] [--] PROGRAM [ARGS...]\n"
        "\n"
        "Runs PROGRAM and replays every call and ret of every thread, child\n"
        "process and executed program on a model Return Stack Buffer. At\n"
        "each process exit, prints (to stderr):\n"
        "  rsb-check: pid N PROGRAM: returns=R underflows=U trap=T\n"
        "    mispredicted=M correct=C calls=K refills=F min-rsb-at-refill=Q\n"
        "    threads=H unknown=X instructions=N foreign-underflows=O\n"
        "    unmodelled=E ideal-refills=I\n"
        "and a total line at the end (unmodelled: programs executed that\n"
        "the model could not run, which ran unchecked; ideal-refills: the\n"
        "refills a counter of every call and return would need).\n"
        "\n"
        "options:\n"
        "  --engine=qemu         (default) run the programs under qemu-x86_64\n"
        "                        with rsb-check's TCG plugin\n"
        "  --engine=ptrace       single-step them under ptrace on the real\n"
        "                        CPU (about 40,000 instructions a second)\n"
        "  -o FILE               write the report to FILE\n"
        "  -v                    also report threads, processes, execs and\n"
        "                        each refill of the rsb-stuff runtime\n"
        "  --list-underflows     list each ret that found the RSB empty\n"
        "  --refill-profile      list the refills made at returns where the\n"
        "                        exact counter made none, per credit loss\n"
        "                        that caused them (reset, cap, uncounted\n"
        "                        entry), most first\n"
        "  --fail-on-underflow   exit with 3 if any ret did, or if a program\n"
        "                        ran without the model (unmodelled)\n"
        "  --fail-on-underflow=instrumented\n"
        "                        exit with 3 if a ret in code rsb-stuff\n"
        "                        compiled did (its thunks and the functions\n"
        "                        with an __rsb_entry. symbol); the other\n"
        "                        underflows, counted by foreign-underflows=,\n"
        "                        are in code it did not compile\n"
        "  --rsb-size N          entries of the model RSB (default 16)\n"
        "  --help                this text\n"
        "\n"
        "The exit status is PROGRAM's (128 + signal if it was killed).\n",
        f);
}

static bool parse_size(const char *s, unsigned *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  if (errno || *end || end == s || v == 0 || v > MAX_RSB_SIZE)
    return false;
  *out = (unsigned)v;
  return true;
}

/* The value of option `name` (the next argument), or exits. */
static const char *option_value(int argc, char **argv, int *i,
                                const char *name) {
  if (*i + 1 >= argc) {
    fprintf(stderr, "rsb-check: %s needs a value\n", name);
    exit(EXIT_USAGE);
  }
  return argv[++*i];
}

/* Parses the options; returns the index of PROGRAM in argv. */
static int parse_options(int argc, char **argv, struct options *o) {
  const char *out_file = NULL;
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--") == 0) {
      i++;
      break;
    }
    if (a[0] != '-')
      break;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      exit(0);
    } else if (strcmp(a, "--engine=qemu") == 0) {
      o->engine = ENGINE_QEMU;
    } else if (strcmp(a, "--engine=ptrace") == 0) {
      o->engine = ENGINE_PTRACE;
    } else if (strcmp(a, "-o") == 0) {
      out_file = option_value(argc, argv, &i, a);
    } else if (strcmp(a, "-v") == 0) {
      o->report.verbose = true;
    } else if (strcmp(a, "--list-underflows") == 0) {
      o->report.list_underflows = true;
    } else if (strcmp(a, "--refill-profile") == 0) {
      o->report.refill_profile = true;
    } else if (strcmp(a, "--fail-on-underflow") == 0) {
      o->fail_on_underflow = true;
    } else if (strcmp(a, "--fail-on-underflow=instrumented") == 0) {
      o->fail_on_underflow = o->fail_only_instrumented = true;
    } else if (strcmp(a, "--rsb-size") == 0) {
      if (!parse_size(option_value(argc, argv, &i, a), &o->rsb_size)) {
        fprintf(stderr, "rsb-check: bad --rsb-size (1-%d)\n", MAX_RSB_SIZE);
        exit(EXIT_USAGE);
      }
    } else {
      fprintf(stderr, "rsb-check: unknown option %s\n", a);
      usage(stderr);
      exit(EXIT_USAGE);
    }
  }
  if (i >= argc) {
    usage(stderr);
    exit(EXIT_USAGE);
  }
  if (out_file && !(o->out = fopen(out_file, "w"))) {
    fprintf(stderr, "rsb-check: %s: %s\n", out_file, strerror(errno));
    exit(EXIT_USAGE);
  }
  return i;
}

int main(int argc, char **argv) {
  struct options opts = {.out = stderr, .rsb_size = DEFAULT_RSB_SIZE};
  struct counts total = {0};
  int prog = parse_options(argc, argv, &opts);
  setvbuf(opts.out, NULL, _IOLBF, 0);
  int status = opts.engine == ENGINE_PTRACE
                   ? ptrace_run(argv + prog, &opts, &total)
                   : qemu_run(argv + prog, &opts, &total);
  fputs("rsb-check: total: ", opts.out);
  print_counts(opts.out, &total, true);
  if (opts.out != stderr)
    fclose(opts.out);
  uint64_t failing = opts.fail_only_instrumented
                         ? total.underflows - total.foreign_underflows
                         : total.underflows;
  if (opts.fail_on_underflow && (failing || total.unmodelled))
    return EXIT_UNDERFLOW;
  return status;
}
