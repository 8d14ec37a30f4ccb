// The GPU backend's merge operations.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_MERGE(cuda_tag)
