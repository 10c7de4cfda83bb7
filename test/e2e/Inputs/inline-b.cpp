#include "inline.h"

int from_b(int x) { return shared_inline(x + 1) + shared_twice(x); }
