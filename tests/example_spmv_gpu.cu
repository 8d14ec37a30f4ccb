// examples/spmv_csr.cpp compiled by nvcc, so that its GPU part is built and run as well.
#include "../examples/spmv_csr.cpp"
