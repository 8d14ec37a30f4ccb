// Built without nvcc: the GPU backend's operations exist and throw, naming what is missing.
#include <stdexcept>
#include <string>

#include "ops.hpp"

namespace mergepath_py {

[[noreturn]] inline void no_cuda() {
  throw std::runtime_error(
      "mergepath: GPU array given, but this build of mergepath has no CUDA backend (nvcc was not found when the "
      "package was built; reinstall with nvcc on PATH or CUDACXX set)");
}

template <class F>
void run_on(cuda_tag, const call&, F&&) {
  no_cuda();
}
template <class F>
void build_on(cuda_tag, const call&, F&&) {
  no_cuda();
}

bool cuda_built() { return false; }
bool cuda_device_available() { return false; }
std::string cuda_unavailable_reason() { return "this build of mergepath has no CUDA backend (built without nvcc)"; }

}  // namespace mergepath_py

// The operations' bodies are never reached with a cuda_context, so none is instantiated.
#include "ops_impl.hpp"

using namespace mergepath_py;
MERGEPATH_PY_INSTANTIATE_ALL(cuda_tag)
