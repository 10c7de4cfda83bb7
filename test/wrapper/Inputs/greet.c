// A .c file compiled by rsb-clang++ is C++, as with clang++.
#include <string>

std::string greet(const std::string &name) { return "hello " + name; }
