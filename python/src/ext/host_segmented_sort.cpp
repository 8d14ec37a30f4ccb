// The host backend's segmented_sort operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SEGMENTED_SORT(host_tag)
