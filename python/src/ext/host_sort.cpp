// The host backend's sort operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SORT(host_tag)
