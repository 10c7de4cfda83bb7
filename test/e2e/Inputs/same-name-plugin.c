int helper(void);
int tail_helper(void);
int plug(void) { return helper() * 10; }
int plug_tail(void) { return tail_helper(); }
