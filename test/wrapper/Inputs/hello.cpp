// C++ through rsb-clang++: the C++ runtime is linked as clang++ links it.
#include <string>

std::string greet(const std::string &name);

int main() { return greet("rsb").size() == 9 ? 0 : 1; }
