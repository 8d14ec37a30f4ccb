// The GPU backend's load_balance operations.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_LOAD_BALANCE(cuda_tag)
