// merge and merge_pairs on a cuda_context: partition the output into tiles by Merge Path, then
// merge every tile in shared memory. Two launches, no synchronization.
#pragma once

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/merge.cuh"
#include "../tuning/merge.hpp"
#include "check_sorted.cuh"

namespace mergepath {
namespace device {

template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
void launch_merge(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                  index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr index_t tile_items = tuning.tile_items();
  index_t total = a_count + b_count;
  if (total == 0) return;
  index_t num_tiles = detail::ceil_div(total, tile_items);

  auto partitions = ctx.allocate<index_t>(num_tiles + 1);
  constexpr int partition_threads = 128;
  auto partition_blocks = detail::ceil_div<index_t>(num_tiles + 1, partition_threads);
  kernel::merge_partition_kernel<<<static_cast<unsigned>(partition_blocks), partition_threads, 0, ctx.stream()>>>(
      a_keys, a_count, b_keys, b_count, tile_items, num_tiles + 1, partitions.data(), comp);
  MERGEPATH_CHECK_LAUNCH("merge_partition_kernel");

  auto tile_kernel = kernel::merge_tile_kernel<Policy, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp>;
  constexpr std::size_t shared_bytes = kernel::merge_layout_of<Policy, AKeys, AVals>::bytes * tuning.stages;
  if constexpr (shared_bytes > 48 * 1024)
    MERGEPATH_CUDA_CHECK(cudaFuncSetAttribute(tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(shared_bytes)));
  index_t blocks = num_tiles;
  if constexpr (tuning.stages > 1) {
    // Persistent: exactly as many blocks as fit on the GPU at once, each walking many tiles.
    int per_sm = 0;
    MERGEPATH_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, tile_kernel, tuning.block_threads,
                                                                       shared_bytes));
    blocks = detail::min_of<index_t>(num_tiles, static_cast<index_t>(detail::max_of(per_sm, 1)) *
                                                    ctx.props().multiProcessorCount);
  }
  tile_kernel<<<static_cast<unsigned>(blocks), tuning.block_threads, shared_bytes, ctx.stream()>>>(
      a_keys, a_vals, b_keys, b_vals, total, partitions.data(), num_tiles, out_keys, out_vals, comp);
  MERGEPATH_CHECK_LAUNCH("merge_tile_kernel");
}

}  // namespace device

// merge with an explicit tuning policy (a type with `static constexpr merge_tuning tuning`).
template <class Policy, class AIt, class BIt, class OutIt, class Comp = less<>>
void merge_tuned(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail::require_range("merge", "a", a, a_count);
  detail::require_range("merge", "b", b, b_count);
  detail::require_range("merge", "out", out, a_count + b_count);
  device::check_merge_inputs(ctx, "merge", a, a_count, b, b_count, comp);
  device::launch_merge<Policy>(ctx, a, kernel::no_values{}, a_count, b, kernel::no_values{}, b_count, out,
                               kernel::no_values{}, comp);
}

template <class AIt, class BIt, class OutIt, class Comp = less<>>
void merge(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  merge_tuned<default_merge_policy<kernel::value_of<AIt>>>(ctx, a, a_count, b, b_count, out, comp);
}

// merge_pairs with an explicit tuning policy.
template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp = less<>>
void merge_pairs_tuned(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                       index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp = {}) {
  detail::require_range("merge_pairs", "a_keys", a_keys, a_count);
  detail::require_range("merge_pairs", "a_vals", a_vals, a_count);
  detail::require_range("merge_pairs", "b_keys", b_keys, b_count);
  detail::require_range("merge_pairs", "b_vals", b_vals, b_count);
  detail::require_range("merge_pairs", "out_keys", out_keys, a_count + b_count);
  detail::require_range("merge_pairs", "out_vals", out_vals, a_count + b_count);
  device::check_merge_inputs(ctx, "merge_pairs", a_keys, a_count, b_keys, b_count, comp);
  device::launch_merge<Policy>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

template <class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp = less<>>
void merge_pairs(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                 index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp = {}) {
  merge_pairs_tuned<default_merge_policy<kernel::value_of<AKeys>, kernel::value_of<AVals>>>(
      ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace mergepath
