/* Compiled by plain clang: returns with a plain `ret`. */
int plain_identity(int x) { return x; }
