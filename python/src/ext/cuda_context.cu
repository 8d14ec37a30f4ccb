// The GPU backend's contexts, and what the package reports about CUDA.
#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuda_run.cuh"

namespace mergepath_py {

namespace {
std::mutex contexts_mutex;
// Never destroyed: at interpreter exit the driver may already be shutting down, and objects
// that still hold device memory from these pools may be freed after any static destructor.
auto* borrowed = new std::map<std::pair<int, std::uintptr_t>, std::unique_ptr<mergepath::cuda_context>>();
auto* owned = new std::map<int, std::unique_ptr<mergepath::cuda_context>>();
}  // namespace

mergepath::cuda_context& cached_context(int device, std::uintptr_t stream) {
  std::lock_guard<std::mutex> lock(contexts_mutex);
  auto& slot = (*borrowed)[{device, stream}];
  if (!slot) slot = std::make_unique<mergepath::cuda_context>(reinterpret_cast<cudaStream_t>(stream));
  return *slot;
}

mergepath::cuda_context& private_context(int device) {
  std::lock_guard<std::mutex> lock(contexts_mutex);
  auto& slot = (*owned)[device];
  if (!slot) slot = std::make_unique<mergepath::cuda_context>();
  return *slot;
}

bool cuda_built() { return true; }

std::string cuda_unavailable_reason() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("no usable CUDA device: cudaGetDeviceCount failed with ") + cudaGetErrorName(status) + " (" +
           cudaGetErrorString(status) + ")";
  }
  if (count == 0) return "no CUDA device: cudaGetDeviceCount found 0 devices";
  return {};
}

bool cuda_device_available() { return cuda_unavailable_reason().empty(); }

void require_device(int device) {
  // Checked on every GPU call: once a device count is known, a comparison (devices do not appear
  // in a running process).
  static std::atomic<int> known_count{0};
  int count = known_count.load(std::memory_order_relaxed);
  if (count == 0) {
    std::string reason = cuda_unavailable_reason();
    if (!reason.empty()) throw std::runtime_error("mergepath: GPU array given, but " + reason);
    MERGEPATH_CUDA_CHECK(cudaGetDeviceCount(&count));
    known_count.store(count, std::memory_order_relaxed);
  }
  if (device < 0 || device >= count)
    throw std::runtime_error("mergepath: no CUDA device " + std::to_string(device) + " (this process sees " +
                             std::to_string(count) + ")");
}

}  // namespace mergepath_py
