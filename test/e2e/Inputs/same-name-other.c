int helper(void) { return 2; }
int tail_helper(void) { return 3; }
