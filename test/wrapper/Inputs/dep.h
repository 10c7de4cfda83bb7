// A header for the dependency file tests.
#define DEP_ZERO 0
