int lib_zero(void);

int main(void) { return lib_zero(); }
