// Kernel launches: what a kernel was compiled for (detail::running_code_arch), the checked launch,
// and programmatic dependent launch and clusters, the Hopper launch features that only kernels
// compiled for sm_90 or later take, with the device-side calls that go with them.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

#include "../error.hpp"

namespace mergepath {
namespace detail {

// The virtual architecture a kernel's code was compiled for, as it runs on the current device
// (its PTX version: 75, 80, 90, ..., as cuda_context::arch() numbers devices). What a kernel can
// do is decided by this, not by the device: a fat binary or PTX run through the driver's JIT
// gives a newer GPU older code, whose Hopper-only steps (programmatic dependent launch,
// clusters, bulk copies) compiled to nothing.
inline int kernel_arch_of(const void* kernel) {
  cudaFuncAttributes attributes{};
  throw_on_cuda_error(cudaFuncGetAttributes(&attributes, kernel), "cudaFuncGetAttributes", __FILE__, __LINE__);
  return attributes.ptxVersion;
}

#if defined(__CUDA_ARCH_LIST__)  // nvcc
// The architectures this translation unit is compiled for (x 10: 750, 900, ...).
constexpr int compiled_arch_list[] = {__CUDA_ARCH_LIST__};
// Does nothing: what it runs as (kernel_arch_of) is what this translation unit's kernels run as. The
// program's translation units that call mergepath are compiled for one list of architectures (as
// with any header-only CUDA template library: their kernels' instantiations are shared).
template <int... Archs>
__global__ void arch_list_probe_kernel() {}
inline const void* arch_list_probe() {
  return reinterpret_cast<const void*>(arch_list_probe_kernel<__CUDA_ARCH_LIST__>);
}
#else
constexpr int compiled_arch_list[] = {750, 800, 860, 900, 1000};
template <int = 0>
__global__ void arch_list_probe_kernel() {}
inline const void* arch_list_probe() { return reinterpret_cast<const void*>(arch_list_probe_kernel<>); }
#endif

// What this translation unit's kernels run as on the current device (kernel_arch_of the probe),
// asked of the driver once per device: launches read it.
inline int running_code_arch() {
  int device = 0;
  throw_on_cuda_error(cudaGetDevice(&device), "cudaGetDevice", __FILE__, __LINE__);
  constexpr int max_devices = 64;
  static std::atomic<int> known[max_devices] = {};  // 0: not asked yet
  if (device < max_devices)
    if (const int arch = known[device].load(std::memory_order_relaxed)) return arch;
  const int arch = kernel_arch_of(arch_list_probe());
  if (device < max_devices) known[device].store(arch, std::memory_order_relaxed);
  return arch;
}

// Whether kernels compiled for `arch` (running_code_arch) take the Hopper launch features: they call
// wait_for_prior_grid() before reading, and their cluster code is compiled in.
constexpr bool takes_hopper_launch(int arch) { return arch >= 90; }

// Launches kernel<<<grid, block, shared_bytes, stream>>>(args...) and reports a failed launch
// as cuda_error naming the kernel. An earlier, unrelated error left in the runtime's "last
// error" is not this launch's and is cleared first. Faults inside the kernel surface later,
// through the next checked call on the stream (synchronize(), a value-returning algorithm).
template <class... Params, class... Args>
void launch(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block, std::size_t shared_bytes,
            cudaStream_t stream, Args&&... args) {
  (void)cudaGetLastError();
#if defined(__CUDACC__)
  kernel<<<grid, block, shared_bytes, stream>>>(std::forward<Args>(args)...);
#endif
  cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess)
    throw cuda_error(code, (std::string("launch of ") + kernel_name).c_str(), __FILE__, __LINE__);
}

// launch_dependent (below), the grid's blocks grouped in clusters of cluster_blocks (1: none),
// whose blocks may read each other's shared memory: only for kernels compiled for sm_90 or later
// (running_code_arch), on a device that launches clusters. grid.x must be a multiple of it.
template <class... Params, class... Args>
void launch_clustered(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block,
                      std::size_t shared_bytes, cudaStream_t stream, unsigned cluster_blocks, Args&&... args) {
  (void)cudaGetLastError();
#if defined(__CUDACC__)
  // Only a kernel that waits for the grid before it (compiled for sm_90 or later) may start
  // early: one compiled for less would read its inputs before they are written.
  const bool hopper = takes_hopper_launch(running_code_arch());
  if (cluster_blocks > 1 && !hopper)
    throw std::invalid_argument(std::string("mergepath: ") + kernel_name +
                                " asked for clusters but was not compiled for sm_90 or later");
  cudaLaunchAttribute attributes[2] = {};
  unsigned used = 0;
  if (hopper) {
    attributes[used].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[used++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (cluster_blocks > 1) {
    attributes[used].id = cudaLaunchAttributeClusterDimension;
    attributes[used].val.clusterDim.x = cluster_blocks;
    attributes[used].val.clusterDim.y = 1;
    attributes[used++].val.clusterDim.z = 1;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = used;
  cudaError_t code = cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
  if (code == cudaSuccess) code = cudaGetLastError();
#else
  cudaError_t code = cudaSuccess;
#endif
  if (code != cudaSuccess)
    throw cuda_error(code, (std::string("launch of ") + kernel_name).c_str(), __FILE__, __LINE__);
}

// launch, but the kernel may start while the stream's previous kernel still runs, once that
// one's blocks have all called allow_dependent_launch() (programmatic dependent launch, sm_90):
// its blocks get resident and ready, so the launch gap is hidden. The kernel must call
// wait_for_prior_grid() before it touches anything the previous kernel writes; that call
// returns once the previous kernel has finished and its writes are visible. For a kernel compiled
// for less than sm_90 (running_code_arch) this is a plain launch.
template <class... Params, class... Args>
void launch_dependent(const char* kernel_name, void (*kernel)(Params...), dim3 grid, dim3 block,
                      std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  launch_clustered(kernel_name, kernel, grid, block, shared_bytes, stream, 1, std::forward<Args>(args)...);
}

#if defined(__CUDACC__)
// The two sides of launch_dependent, in device code; no-ops where unsupported or not launched so.
__device__ inline void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ inline void wait_for_prior_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
#endif

}  // namespace detail
}  // namespace mergepath
