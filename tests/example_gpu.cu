// examples/merge_example.cpp compiled by nvcc, so that its GPU part is built and run as well.
#include "../examples/merge_example.cpp"
