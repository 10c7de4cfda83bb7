/*===- record.h - A modelled process's counts, in a shared file ----*- C -*-===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*/

#ifndef RSB_CHECK_RECORD_H
#define RSB_CHECK_RECORD_H

#include "options.h"

#include "counts.h"
#include "model.h"

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/* Thread slots: QEMU numbers a process's threads from 0 and reuses the
 * number of a thread that ended, so this bounds the threads alive at once. */
#define RECORD_MAX_THREADS 8192

/* One thread number's counts, alone on its cache lines: each is written by
 * one thread only, on every call and return. */
struct record_slot {
  struct counts counts;
} __attribute__((aligned(128)));

enum record_state {
  RECORD_RUNNING,
  RECORD_REPORTED, /* the process printed its report on its way out */
};

/*
 * The record of one process, in a file of the run's directory mapped
 * MAP_SHARED: whatever kills the process, rsb-check still finds its counts,
 * underflows and refill profile there. The underflow list follows the
 * struct in the file (record_underflows), the loss list the underflow list
 * (record_losses).
 */
struct record {
  uint32_t magic, version;
  int32_t pid;
  uint32_t state;  /* enum record_state */
  uint32_t exited; /* exit_status is the status of its exit */
  int32_t exit_status;
  uint32_t unfollowed; /* it exec'd a program the model cannot run */
  uint32_t slots_used; /* highest thread number + 1 */
  char exe[PATH_MAX];  /* the program it runs (the last one exec'd) */
  char unfollowed_exe[PATH_MAX];
  struct record_slot slots[RECORD_MAX_THREADS];
};

/* Creates the record of process pid running exe in dir, mapped; the file's
 * path goes to path (PATH_MAX bytes). NULL (errno set) on failure. */
struct record *record_create(const char *dir, int pid, const char *exe,
                             char *path);

/* Maps an existing record: the program exec'd by a modelled process
 * continues its record. NULL (errno set) on failure. */
struct record *record_open(const char *path, bool writable);

/* After fork, in the child: puts a new, empty record for process pid in
 * dir at the same address as rec (which the parent keeps), so that
 * pointers into it stay valid. False (errno set) on failure. */
bool record_replace(struct record *rec, const char *dir, int pid, char *path);

void record_close(struct record *rec);

struct underflow_list *record_underflows(struct record *rec);
struct loss_list *record_losses(struct record *rec);

/* The process's counts: the sum of its thread slots, one process. */
void record_counts(const struct record *rec, struct counts *sum);

#endif /* RSB_CHECK_RECORD_H */
