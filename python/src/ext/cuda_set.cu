// The GPU backend's set operations.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SET(cuda_tag)
