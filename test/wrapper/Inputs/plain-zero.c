// Built with plain clang: not instrumented, reached through fallbacks.
int plain_zero(void) { return 0; }
