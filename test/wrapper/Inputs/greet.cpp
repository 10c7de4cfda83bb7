// greet() for the CMake project, which compiles it as C++.
#include <string>

std::string greet(const std::string &name) { return "hello " + name; }
