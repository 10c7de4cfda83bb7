/*===- launch.h - The QEMU command line that runs a program --------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_LAUNCH_H
#define RSB_CHECK_LAUNCH_H

#include "options.h"

#include <stddef.h>

/* What execve(path, argv, envp) becomes under the model. */
enum launch_result {
  LAUNCH_OK,      /* run plan: QEMU with the plugin runs the program */
  LAUNCH_REFUSED, /* the kernel refuses it too (errno in *err): let it */
  LAUNCH_FOREIGN, /* the kernel may run it, but not under the model (an
                     ELF file for another machine): it runs unchecked */
};

/* QEMU's command line and environment. */
struct launch_plan {
  char **argv;
  char **envp;
};

/*
 * Plans running path with argv and envp as execve(2) would, but under
 * `qemu -plugin plugin_spec,program=PROG`: an x86-64 ELF program directly
 * (the program QEMU loads is PROG), a `#!`
 * script through its interpreter (as the kernel builds its command line).
 * The dynamic loader's and QEMU's own variables (LD_*, QEMU_*) are kept out
 * of QEMU's environment and handed to the program with -E, so that
 * LD_PRELOAD and LD_LIBRARY_PATH reach the program and not QEMU. why gets
 * a reason for LAUNCH_REFUSED and LAUNCH_FOREIGN.
 */
enum launch_result launch_prepare(const char *qemu, const char *plugin_spec,
                                  const char *path, char *const argv[],
                                  char *const envp[], struct launch_plan *plan,
                                  int *err, char *why, size_t why_size);

void launch_plan_free(struct launch_plan *plan);

#endif /* RSB_CHECK_LAUNCH_H */
