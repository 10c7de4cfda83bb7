//===- rsb_returns_twice.c - The C library's functions that return twice --===//
//
// Part of rsb-stuff: call depth tracking (RSB stuffing) done by the compiler.
//
//===----------------------------------------------------------------------===//
//
// __rsb_icall_r11 (rsb_thunks.S) calls a target without the accounting
// entry's mark from a frame of its own, below the call site's stack
// pointer. A function that returns twice returns the second time after the
// site has gone on and reused that frame: a vforked child's calls, the code
// run before setcontext or longjmp. The compiler keeps such calls at the
// site where it can see them (a call of a returns_twice function, a module
// that takes the address of one: llvm-pass/RSBStuffIndirectCalls.cpp); a
// pointer to one that comes from another module or library reaches the
// copy, which compares the target with this table and stops the program
// with a message instead of running on with a broken stack.
//
// Only executables use the copy (shared objects have no marks), so only
// librsbstuff.a carries the table. Its first six words are the addresses
// the program itself uses for these functions: the C library's in a PIE,
// but in a non-PIE executable that takes one's address in code built
// without -fPIC, the executable's canonical PLT entry, while a pointer from
// dlsym(RTLD_NEXT) or from a library is the C library's own. So for a word
// that lies in the executable the last six words hold the address
// dlsym(RTLD_NEXT) finds, looked up once before the executable's other
// constructors. The references are weak (a static link does not pull the
// functions in, a freestanding one has none), and absent functions' words
// stay 0, which the copy never compares. Nothing here needs the C library:
// freestanding programs link it too.
//
//===----------------------------------------------------------------------===//

#include <stddef.h>

#define RSB_HIDDEN __attribute__((visibility("hidden")))

// glibc's sigsetjmp is a macro and savectx absent; these are the functions
// behind them that a pointer can hold.
#define RSB_RETURNS_TWICE(X)                                                   \
  X(vfork) X(__vfork) X(getcontext) X(setjmp) X(_setjmp) X(__sigsetjmp)

// Counted strings: a loop that measures one would become a call to strlen.
struct text {
  const char *s;
  size_t n;
};

#define RSB_TEXT(literal) ((struct text){literal, sizeof literal - 1})
#define RSB_DECLARE(name)                                                      \
  extern void rsb_##name(void) __asm__(#name) __attribute__((weak));
#define RSB_ADDRESS(name) (void *)rsb_##name,
#define RSB_NAME(name) {#name, sizeof #name - 1},

RSB_RETURNS_TWICE(RSB_DECLARE)

enum { NUM_FUNCTIONS = 6 };

// Read by __rsb_icall_r11 (rsb_thunks.S, RETURNS_TWICE_CHECK): twelve
// words, the link's addresses and then the C library's.
RSB_HIDDEN void *__rsb_returns_twice[2 * NUM_FUNCTIONS] = {
    RSB_RETURNS_TWICE(RSB_ADDRESS)};

static const struct text returns_twice_names[] = {RSB_RETURNS_TWICE(RSB_NAME)};

_Static_assert(sizeof returns_twice_names / sizeof *returns_twice_names ==
                   NUM_FUNCTIONS,
               "RETURNS_TWICE_CHECK in rsb_thunks.S reads twelve words");

#define RSB_NEXT ((void *)-1L) // RTLD_NEXT, without <dlfcn.h>
extern void *rsb_dlsym(void *, const char *) __asm__("dlsym")
    __attribute__((weak));
// The executable's own code, from its ELF header to the end of its text.
extern const char rsb_image_start[] __asm__("__ehdr_start")
    __attribute__((weak));
extern const char rsb_text_end[] __asm__("etext") __attribute__((weak));

// The C library's own addresses of the functions whose word is a canonical
// PLT entry of the executable (a PIE has none: nothing to look up there).
__attribute__((constructor(101))) static void find_library_addresses(void) {
  if (!rsb_dlsym || !rsb_image_start || !rsb_text_end)
    return;
  for (size_t i = 0; i < NUM_FUNCTIONS; ++i) {
    const char *word = __rsb_returns_twice[i];
    if (word >= rsb_image_start && word < rsb_text_end)
      __rsb_returns_twice[NUM_FUNCTIONS + i] =
          rsb_dlsym(RSB_NEXT, returns_twice_names[i].s);
  }
}

static void say(struct text t) {
  long ret;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "0"(1L /* write */), "D"(2L /* stderr */), "S"(t.s),
                     "d"(t.n)
                   : "rcx", "r11", "memory");
}

// Entered by a jump from __rsb_icall_r11 in place of the call.
RSB_HIDDEN __attribute__((noreturn)) void
__rsb_returns_twice_called(void *target) {
  struct text name = RSB_TEXT("a function that returns twice");
  for (size_t i = 2 * NUM_FUNCTIONS; i-- > 0;) // an alias's first name
    if (__rsb_returns_twice[i] == target)
      name = returns_twice_names[i % NUM_FUNCTIONS];
  say(RSB_TEXT("rsb-stuff: "));
  say(name);
  say(RSB_TEXT(" called through a function pointer, which the runtime's "
               "__rsb_icall_r11 cannot make: it returns twice. Build the "
               "caller with -mllvm -x86-rsb-stuff-shared-indirect-call=never."
               "\n"));
  __builtin_trap();
}
