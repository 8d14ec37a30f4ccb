// The host backend's set operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SET(host_tag)
