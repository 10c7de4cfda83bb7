int helper(int x) { return x; }
