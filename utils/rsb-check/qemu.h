/*===- qemu.h - The QEMU engine ------------------------------------*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_QEMU_H
#define RSB_CHECK_QEMU_H

#include "options.h"

#include "counts.h"

/* Runs argv (PATH searched) under qemu-x86_64 with the model plugin, and
 * every process it creates or execs, until all are gone. Each process
 * prints its report as it exits; the others are reported at the end. Fills
 * *total and returns the exit status of the program as a shell reports it
 * (128 + signal for a crash). */
int qemu_run(char **argv, const struct options *opts, struct counts *total);

#endif /* RSB_CHECK_QEMU_H */
