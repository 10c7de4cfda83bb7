/* A signal handler built without rsb-stuff that calls 40 deep
 * (test/e2e/signal-plain-handler-helper-ret.test): its plain calls wrap
 * the 16-entry RSB and its plain returns drain it, also of the entries the
 * interrupted code still needs. */
volatile int handler_sink;

__attribute__((noinline)) int plain_deep(int n) {
  handler_sink = n;
  if (n <= 0)
    return 0;
  int r = plain_deep(n - 1);
  handler_sink = r;
  return r + 1;
}

void on_alarm(int sig) {
  (void)sig;
  plain_deep(40);
}
