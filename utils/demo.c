// The rsb-stuff demo: a tree walk deeper than the 16-entry Return Stack
// Buffer, qsort calling back into instrumented code from libc, and a
// recursion, with the counters of the calling thread printed as it goes.
#include <rsb_stuff.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
  struct node *left, *right;
  int value;
};

static struct node *build(int depth, int *next) {
  if (depth == 0)
    return NULL;
  struct node *n = malloc(sizeof *n);
  n->left = build(depth - 1, next);
  n->value = (*next)++;
  n->right = build(depth - 1, next);
  return n;
}

__attribute__((noinline)) long walk(const struct node *n) {
  if (!n)
    return 0;
  return walk(n->left) + n->value + walk(n->right);
}

static int compare(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

__attribute__((noinline)) unsigned long fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static void report(const char *what) {
  struct rsb_stats s;
  rsb_stats_read(&s);
  printf("%-28s calls=%-9llu returns=%-9llu refills=%llu\n", what,
         (unsigned long long)s.calls, (unsigned long long)s.returns,
         (unsigned long long)s.refills);
}

int main(void) {
  int next = 0;
  struct node *tree = build(18, &next);
  report("after building 18 levels");
  printf("walk sum = %ld\n", walk(tree));
  report("after walking the tree");

  int values[1000];
  for (int i = 0; i < 1000; i++)
    values[i] = (i * 7919) % 1000;
  qsort(values, 1000, sizeof values[0], compare);
  printf("qsort: first=%d last=%d\n", values[0], values[999]);
  report("after qsort (libc calls back)");

  printf("fib(25) = %lu\n", fib(25));
  report("after fib(25)");
  // The statistics runtime reports at exit on stderr: print ours first.
  fflush(stdout);
  return 0;
}
