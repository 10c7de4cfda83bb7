# lit configuration for rsb-stuff. Tests use these substitutions:
#   %llc        llc-22 with the plugin loaded (add -x86-rsb-stuff yourself)
#   %clang_rsb  clang-22 with the plugin and -mllvm -x86-rsb-stuff
#   %clang      plain clang-22 (no plugin)
#   %rsb-clang  the launcher from the build tree (clang-22 --config=%rsb_cfg)
#   %rsb_cfg    rsb-stuff's clang configuration file
#   %rsb-check  the dynamic RSB model checker (utils/rsb-check)
#   %plugin     path of the plugin; %libdir the runtime libraries
#   %model      the reference model of the counter (test/tools/rsb_model.py)
#   %python     the Python running lit
#   %llvm_bin   LLVM's bin directory (/usr/lib/llvm-22/bin)
#   %rsb_source_dir  the source tree (for its utils/ scripts)
#   %libc-depth  utils/libc-depth (call depths of a shared library's functions)
# Features: libc-depth-verified (this machine's libc.so.6 is the build the
# hand-verified values of test/tools/libc-depth-libc.test were read from),
# system-libc (there is an x86-64 /lib/x86_64-linux-gnu/libc.so.6).
import os
import shutil
import sys

import lit.formats

config.name = "rsb-stuff"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test", ".s", ".mir"]
config.excludes = ["Inputs", "CMakeLists.txt"]
config.test_source_root = config.rsb_test_source_dir
config.test_exec_root = config.rsb_test_binary_dir

llvm_bin = config.llvm_bin_dir
plugin = os.path.join(config.rsb_lib_dir, "RSBStuff.so")
config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions += [
    ("%llc", "%s -load %s" % (os.path.join(llvm_bin, "llc"), plugin)),
    ("%clang_rsb", "%s -fplugin=%s -mllvm -x86-rsb-stuff"
     % (os.path.join(llvm_bin, "clang"), plugin)),
    ("%clangxx", os.path.join(llvm_bin, "clang++")),
    ("%clang", os.path.join(llvm_bin, "clang")),
    ("%rsb-clangxx", os.path.join(config.rsb_bin_dir, "rsb-clang++")),
    ("%rsb-clang", os.path.join(config.rsb_bin_dir, "rsb-clang")),
    ("%rsb-verify", os.path.join(config.rsb_bin_dir, "rsb-verify")),
    ("%rsb-check", os.path.join(config.rsb_bin_dir, "rsb-check")),
    ("%rsb_cfg", os.path.join(config.rsb_lib_dir, "rsb-stuff",
                              "rsb-stuff.cfg")),
    ("%plugin", plugin),
    ("%libdir", config.rsb_lib_dir),
    ("%rsb_build_dir", os.path.dirname(config.rsb_bin_dir)),
    ("%rtinclude", os.path.join(config.rsb_source_dir, "runtime", "include")),
    ("%rsb_source_dir", config.rsb_source_dir),
    ("%model", "%s %s" % (sys.executable, os.path.join(
        config.rsb_test_source_dir, "tools", "rsb_model.py"))),
    ("%python", sys.executable),
    ("%libc-depth", "%s %s" % (sys.executable, os.path.join(
        config.rsb_source_dir, "utils", "libc-depth"))),
    ("%llvm_bin", llvm_bin),
]

if shutil.which("ld.bfd"):
    config.available_features.add("gnu-ld")
for cache in ("ccache", "sccache"):
    if shutil.which(cache):
        config.available_features.add(cache)

# The real-projects test (test/projects) fetches Debian sources with
# apt-get source (about a minute here, most of it the first fetch). It runs
# by default, so the promise that real build systems work instrumented is
# checked on every run; RSB_REAL_PROJECTS=0 leaves it out (offline work).
if os.environ.get("RSB_REAL_PROJECTS", "1") != "0":
    config.available_features.add("real-projects")

# The libc build whose depths were read by hand from its disassembly
# (test/tools/libc-depth-libc.test), with its detached debug symbols
# (libc6-dbg, which utils/install-deps installs: malloc's once-flag needs
# them); on another build those values need not hold, so that test is
# skipped, while the rule tests on small hand-written libraries run
# everywhere.
LIBC = "/lib/x86_64-linux-gnu/libc.so.6"
LIBC_VERIFIED_BUILD_ID = "93ac61ec5a8eb1396f9fbd350e3169a558528a40"
if os.path.exists(LIBC):
    config.available_features.add("system-libc")
    import subprocess
    try:
        notes = subprocess.run(["readelf", "-n", LIBC], capture_output=True,
                               text=True).stdout
    except OSError:
        notes = ""
    debug = "/usr/lib/debug/.build-id/%s/%s.debug" % (
        LIBC_VERIFIED_BUILD_ID[:2], LIBC_VERIFIED_BUILD_ID[2:])
    if "Build ID: " + LIBC_VERIFIED_BUILD_ID in notes and \
            os.path.exists(debug):
        config.available_features.add("libc-depth-verified")
