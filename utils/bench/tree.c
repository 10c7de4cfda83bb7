/* tree: build a binary tree recursively, walk it, free it.
 *
 * Recursion up to 17 deep with a malloc (a libc call, after which the
 * credit is cleared) at every node. Usage: tree [NODES]; builds trees of
 * depth 16 (fewer when NODES is small) until about NODES nodes were made,
 * walks each one 4 times and frees it. */
#include <stdio.h>
#include <stdlib.h>

struct node {
  struct node *left, *right;
  unsigned long value;
};

static __attribute__((noinline)) struct node *build(int depth,
                                                    unsigned long value) {
  struct node *n = malloc(sizeof *n);
  if (!n)
    abort();
  n->value = value;
  n->left = depth ? build(depth - 1, value * 2) : NULL;
  n->right = depth ? build(depth - 1, value * 2 + 1) : NULL;
  return n;
}

static __attribute__((noinline)) unsigned long walk(const struct node *n,
                                                    unsigned long salt) {
  if (!n)
    return salt;
  return (walk(n->left, salt) * 3 + n->value) ^ walk(n->right, salt + 1);
}

static __attribute__((noinline)) void release(struct node *n) {
  if (!n)
    return;
  release(n->left);
  release(n->right);
  free(n);
}

int main(int argc, char **argv) {
  long nodes = argc > 1 ? atol(argv[1]) : 5000000;
  int depth = 16;
  while (depth > 0 && (2l << depth) - 1 > nodes)
    depth--;
  long rounds = nodes / ((2l << depth) - 1);
  unsigned long sum = 0;
  for (long r = 0; r < (rounds ? rounds : 1); r++) {
    struct node *root = build(depth, (unsigned long)r + 1);
    for (unsigned long w = 0; w < 4; w++)
      sum += walk(root, w);
    release(root);
  }
  printf("tree %ld: %lu\n", nodes, sum);
  return 0;
}
