int broken_too(void) { return another_undeclared_name; }
