// The GPU backend's search operations.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SEARCH(cuda_tag)
