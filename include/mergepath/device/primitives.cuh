// Launch plumbing every device/ entry point shares: how many blocks of a kernel fit on an SM, how
// far ahead tile kernels prefetch, a grid of one thread per item, and a 64-bit exclusive scan.
#pragma once

#include <atomic>
#include <cstddef>
#include <cub/device/device_scan.cuh>
#include <limits>
#include <stdexcept>
#include <string>

#include "../context.hpp"
#include "../detail/cub_item_count.hpp"
#include "../error.hpp"
#include "../functional.hpp"

namespace mergepath {
namespace device {

// How many blocks of Kernel fit on one multiprocessor of ctx's device, asked of the driver once
// per kernel and device (the answer cannot change), after raising the kernel's dynamic shared
// memory limit when it needs more than the default 48 KB (and, with carve_out_shared, asking for
// the largest shared-memory share of the L1: kernels that stream through shared memory).
template <auto Kernel>
int resident_blocks_per_sm(const cuda_context& ctx, int block_threads, std::size_t shared_bytes,
                           bool carve_out_shared = false) {
  constexpr int max_devices = 64;
  static std::atomic<int> cached[max_devices] = {};  // 0: not asked yet
  int device = ctx.device();
  if (device < max_devices)
    if (int known = cached[device].load(std::memory_order_relaxed)) return known;
  if (shared_bytes > ctx.props().sharedMemPerBlockOptin)
    throw std::invalid_argument("mergepath: the tuning's tile does not fit on this GPU (" +
                                std::to_string(shared_bytes) + " bytes of shared memory per block, " +
                                std::to_string(ctx.props().sharedMemPerBlockOptin) + " allowed)");
  // Opt in whenever there is dynamic shared memory: static plus dynamic past 48 KiB needs it too.
  if (shared_bytes > 0)
    MERGEPATH_CUDA_CHECK(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  if (shared_bytes > 0 && carve_out_shared)
    MERGEPATH_CUDA_CHECK(
        cudaFuncSetAttribute(Kernel, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared));
  int per_sm = 0;
  MERGEPATH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, Kernel, block_threads, shared_bytes));
  if (per_sm < 1)
    throw std::invalid_argument("mergepath: the tuning's tile does not fit on this GPU (" +
                                std::to_string(shared_bytes) + " bytes of shared memory per block)");
  if (device < max_devices) cached[device].store(per_sm, std::memory_order_relaxed);
  return per_sm;
}

// Tiles ahead of its own whose runs a tile kernel asks L2 for: tiles_per_sm for each SM, at
// least one where it is positive (0: none).
inline index_t prefetch_distance(const cuda_context& ctx, float tiles_per_sm) {
  if (!(tiles_per_sm > 0)) return 0;
  return detail::max_of<index_t>(
      1, static_cast<index_t>(tiles_per_sm * static_cast<float>(ctx.props().multiProcessorCount)));
}

// A grid of one thread per item (the kernels loop past the grid's limit). For the searches it beat
// a grid of a few blocks per SM looping over the needles, Eytzinger too, even though every block
// copies the tree's top levels (docs/design/search.md#4-what-was-tried).
inline unsigned one_per_thread_grid(index_t n, int block_threads) {
  return static_cast<unsigned>(
      detail::min_of<index_t>(detail::ceil_div<index_t>(n, block_threads), std::numeric_limits<int>::max()));
}

// out[0, count + 1) = the exclusive scan of in[0, count + 1), summed in 64 bits whatever in's type
// (32-bit offsets inside CUB where the count allows).
template <class InIt, class OutIt>
void exclusive_scan(cuda_context& ctx, InIt in, index_t count, OutIt out) {
  with_cub_item_count(count + 1, [&](auto items) {
    std::size_t bytes = 0;
    MERGEPATH_CUDA_CHECK(
        cub::DeviceScan::ExclusiveScan(nullptr, bytes, in, out, plus<>{}, index_t{0}, items, ctx.stream()));
    auto temp = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
    MERGEPATH_CUDA_CHECK(
        cub::DeviceScan::ExclusiveScan(temp.data(), bytes, in, out, plus<>{}, index_t{0}, items, ctx.stream()));
  });
}

}  // namespace device
}  // namespace mergepath
