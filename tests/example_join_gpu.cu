// examples/join_example.cpp compiled by nvcc, so that its GPU part is built and run as well.
#include "../examples/join_example.cpp"
