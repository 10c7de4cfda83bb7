// Built WITHOUT rsb-stuff: returns with a plain ret, so calls to it must not
// be counted and tail calls to it must account the return first.
int plain_leaf(int x) { return x + 100; }
