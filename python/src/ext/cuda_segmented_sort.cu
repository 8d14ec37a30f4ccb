// The GPU backend's segmented_sort operations.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SEGMENTED_SORT(cuda_tag)
