// The host backend's merge operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_MERGE(host_tag)
