// The host backend's search operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_SEARCH(host_tag)
