// The GPU backend's joins.
#include "cuda_run.cuh"
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_JOIN(cuda_tag)
