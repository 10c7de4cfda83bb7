// Every thread, including ones made with pthread_create, starts with the
// counter at 0x8000000000000000 and keeps its own statistics.
#include <pthread.h>
#include <rsb_stuff.h>
#include <stdio.h>

__attribute__((noinline)) int rec(int n) {
  if (n <= 1)
    return 1;
  int r = rec(n - 1);
  __asm__ volatile("" ::: "memory");
  return r + 1;
}

struct result {
  uint64_t start, calls, refills;
};

static void *worker(void *arg) {
  struct result *res = arg;
  struct rsb_stats s;
  res->start = rsb_depth_read();
  rsb_depth_reset();
  rsb_stats_reset();
  rec(40);
  rsb_stats_read(&s);
  res->calls = s.calls;
  res->refills = s.refills;
  return NULL;
}

int main(void) {
  pthread_t threads[4];
  struct result results[4];
  for (int i = 0; i < 4; i++)
    pthread_create(&threads[i], NULL, worker, &results[i]);
  for (int i = 0; i < 4; i++)
    pthread_join(threads[i], NULL);
  for (int i = 0; i < 4; i++)
    printf("thread %d start=0x%016llx calls=%llu refills=%llu\n", i,
           (unsigned long long)results[i].start,
           (unsigned long long)results[i].calls,
           (unsigned long long)results[i].refills);
  return 0;
}
