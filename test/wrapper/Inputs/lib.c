// A shared library function that calls a function nobody instruments.
int plain_zero(void);

int lib_zero(void) { return plain_zero() + 0 * plain_zero(); }
