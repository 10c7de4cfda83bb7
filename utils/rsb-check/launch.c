/*===- launch.c - The QEMU command line that runs a program ---------------===*
 *
 * Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
 *
 *===----------------------------------------------------------------------===*
 *
 * qemu-user runs one program and, at an execve(), lets the kernel run the
 * next one natively. So both the first program (qemu.c) and every program
 * a modelled process executes (plugin.c) are started here, as QEMU with the
 * plugin. What the kernel would do with the file is done here first, in
 * its order: a missing or non-executable file fails as it would (the
 * caller lets the real execve fail), a `#!` script runs its interpreter
 * with the kernel's command line (fs/binfmt_script.c), an x86-64 ELF file
 * runs under QEMU, and any other format is left to the kernel: it runs,
 * but unchecked, and the caller says so.
 *
 *===----------------------------------------------------------------------===*/

#include "launch.h"

#include "alloc.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kernel reads this much of a file to recognise its format. */
#define HEADER_BYTES 256
/* Interpreters of interpreters the kernel follows before ELOOP. */
#define MAX_SCRIPT_NESTING 4

/* A growing NULL-terminated vector of strings it owns. */
struct strv {
  char **v;
  size_t count, capacity;
};

static void strv_add(struct strv *s, const char *item) {
  if (s->count + 2 > s->capacity) {
    s->capacity = s->capacity ? 2 * s->capacity : 16;
    s->v = xrealloc(s->v, s->capacity * sizeof *s->v);
  }
  s->v[s->count++] = xstrdup(item);
  s->v[s->count] = NULL;
}

static void strv_free(char **v) {
  for (char **p = v; p && *p; p++)
    free(*p);
  free(v);
}

static void say(char *why, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, size, fmt, ap);
  va_end(ap);
}

enum format { FORMAT_X86_64, FORMAT_SCRIPT, FORMAT_OTHER_ELF };

/* Reads the start of path, as the kernel's execve does, after its own
 * checks. LAUNCH_REFUSED with *err for what the kernel would refuse. */
static enum launch_result read_header(const char *path, char *buf, size_t *len,
                                      enum format *format, int *err) {
  struct stat st;
  if (stat(path, &st) < 0 || access(path, X_OK) < 0) {
    *err = errno;
    return LAUNCH_REFUSED;
  }
  if (!S_ISREG(st.st_mode)) {
    *err = EACCES;
    return LAUNCH_REFUSED;
  }
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = errno; /* executable but unreadable: QEMU cannot load it */
    return LAUNCH_FOREIGN;
  }
  ssize_t n = read(fd, buf, HEADER_BYTES);
  close(fd);
  *len = n > 0 ? (size_t)n : 0;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
  if (*len >= 2 && buf[0] == '#' && buf[1] == '!') {
    *format = FORMAT_SCRIPT;
  } else if (*len >= sizeof *eh && memcmp(buf, ELFMAG, SELFMAG) == 0) {
    *format = eh->e_ident[EI_CLASS] == ELFCLASS64 &&
                      eh->e_ident[EI_DATA] == ELFDATA2LSB &&
                      eh->e_machine == EM_X86_64
                  ? FORMAT_X86_64
                  : FORMAT_OTHER_ELF;
  } else {
    *err = ENOEXEC;
    return LAUNCH_REFUSED;
  }
  return LAUNCH_OK;
}

/* The `#!` line: interpreter and optional argument (NULL if none), split
 * as fs/binfmt_script.c does. False if it names no interpreter. */
static bool parse_shebang(char *buf, size_t len, char **interp, char **arg) {
  char *end = memchr(buf, '\n', len);
  if (!end)
    end = buf + (len < HEADER_BYTES ? len : HEADER_BYTES - 1);
  *end = '\0';
  while (end > buf + 2 && (end[-1] == ' ' || end[-1] == '\t'))
    *--end = '\0';
  char *p = buf + 2;
  p += strspn(p, " \t");
  if (!*p)
    return false;
  *interp = p;
  p += strcspn(p, " \t");
  *arg = NULL;
  if (*p) {
    *p++ = '\0';
    p += strspn(p, " \t");
    if (*p)
      *arg = p;
  }
  return true;
}

/* The program to load and its command line, scripts resolved. */
static enum launch_result resolve(const char *path, char *const argv[],
                                  int depth, char *prog, struct strv *args,
                                  int *err, char *why, size_t why_size) {
  char buf[HEADER_BYTES + 1];
  size_t len;
  enum format format;
  enum launch_result r = read_header(path, buf, &len, &format, err);
  if (r == LAUNCH_FOREIGN)
    say(why, why_size, "%s: cannot be read (%s)", path, strerror(*err));
  if (r != LAUNCH_OK)
    return r;
  if (format == FORMAT_OTHER_ELF) {
    say(why, why_size, "%s: not an x86-64 program", path);
    return LAUNCH_FOREIGN;
  }
  if (format == FORMAT_X86_64) {
    snprintf(prog, PATH_MAX, "%s", path);
    for (size_t i = 0; argv[i]; i++)
      strv_add(args, argv[i]);
    return LAUNCH_OK;
  }
  char *interp, *arg;
  buf[len] = '\0';
  if (!parse_shebang(buf, len, &interp, &arg)) {
    *err = ENOEXEC;
    return LAUNCH_REFUSED;
  }
  if (depth == MAX_SCRIPT_NESTING) {
    *err = ELOOP;
    return LAUNCH_REFUSED;
  }
  /* The kernel's command line: interpreter, its argument, the script as
   * execve named it, then the arguments after argv[0]. */
  struct strv script = {0};
  strv_add(&script, interp);
  if (arg)
    strv_add(&script, arg);
  strv_add(&script, path);
  for (size_t i = argv[0] ? 1 : 0; argv[i]; i++)
    strv_add(&script, argv[i]);
  r = resolve(interp, script.v, depth + 1, prog, args, err, why, why_size);
  strv_free(script.v);
  return r;
}

/* plugin_spec with program=PROG: the plugin API of QEMU 10.0 cannot name
 * the program. QEMU's option parser reads ",," as a comma. */
static char *plugin_argument(const char *plugin_spec, const char *prog) {
  size_t len = strlen(plugin_spec);
  char *arg = xcalloc(1, len + sizeof ",program=" + 2 * strlen(prog));
  char *p = arg + sprintf(arg, "%s,program=", plugin_spec);
  for (const char *c = prog; *c; c++) {
    *p++ = *c;
    if (*c == ',')
      *p++ = ',';
  }
  return arg;
}

/* Variables read by the host side of QEMU: its dynamic loader's and its
 * own options. */
static bool is_host_variable(const char *entry) {
  return strncmp(entry, "LD_", 3) == 0 || strncmp(entry, "QEMU_", 5) == 0;
}

enum launch_result launch_prepare(const char *qemu, const char *plugin_spec,
                                  const char *path, char *const argv[],
                                  char *const envp[], struct launch_plan *plan,
                                  int *err, char *why, size_t why_size) {
  static char *const no_args[] = {NULL};
  char prog[PATH_MAX];
  struct strv args = {0}, cmd = {0}, env = {0};
  *err = 0;
  why[0] = '\0';
  enum launch_result r =
      resolve(path, argv ? argv : no_args, 0, prog, &args, err, why, why_size);
  if (r != LAUNCH_OK) {
    strv_free(args.v);
    return r;
  }
  strv_add(&cmd, qemu);
  strv_add(&cmd, "-plugin");
  char *spec = plugin_argument(plugin_spec, prog);
  strv_add(&cmd, spec);
  free(spec);
  for (size_t i = 0; envp && envp[i]; i++) {
    /* QEMU splits -E at commas: such a value stays in its environment. */
    if (is_host_variable(envp[i]) && !strchr(envp[i], ',')) {
      strv_add(&cmd, "-E");
      strv_add(&cmd, envp[i]);
    } else {
      strv_add(&env, envp[i]);
    }
  }
  if (args.count > 0) {
    strv_add(&cmd, "-0"); /* the program's own argv[0] */
    strv_add(&cmd, args.v[0]);
  }
  /* After the options: a path that looks like one is made relative. */
  char dotted[PATH_MAX + 2];
  snprintf(dotted, sizeof dotted, "%s%s", prog[0] == '-' ? "./" : "", prog);
  strv_add(&cmd, dotted);
  for (size_t i = 1; i < args.count; i++)
    strv_add(&cmd, args.v[i]);
  strv_free(args.v);
  plan->argv = cmd.v;
  if (!env.v)
    env.v = xcalloc(1, sizeof *env.v);
  plan->envp = env.v;
  return LAUNCH_OK;
}

void launch_plan_free(struct launch_plan *plan) {
  strv_free(plan->argv);
  strv_free(plan->envp);
  plan->argv = plan->envp = NULL;
}
