// main only tail-calls a function that is not instrumented: the program
// needs the fallback __rsb_tail.plain_zero, and nothing in it needs the
// runtime's thunks, which define __rsb_reset_depth that the fallback calls.
int plain_zero(void);

int main(void) { return plain_zero(); }
