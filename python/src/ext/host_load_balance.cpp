// The host backend's load_balance operations.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_LOAD_BALANCE(host_tag)
