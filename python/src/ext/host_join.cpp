// The host backend's joins.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_JOIN(host_tag)
