// flags-matrix program threads: four threads, each with its own counter,
// doing 40-deep recursions; the results are printed after the joins.
#include <pthread.h>
#include <stdio.h>

__attribute__((noinline)) int climb(int n) {
  if (n == 0)
    return 0;
  int r = climb(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

static void *worker(void *arg) {
  int *slot = arg;
  *slot = climb(40) + *slot;
  return NULL;
}

int main(void) {
  pthread_t threads[4];
  int results[4];
  for (int i = 0; i < 4; i++) {
    results[i] = i * 100;
    pthread_create(&threads[i], NULL, worker, &results[i]);
  }
  for (int i = 0; i < 4; i++)
    pthread_join(threads[i], NULL);
  for (int i = 0; i < 4; i++)
    printf("thread %d: %d\n", i, results[i]);
  return 0;
}
