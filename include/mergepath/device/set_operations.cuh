// The set operations on a cuda_context (set_operations.hpp documents them): the merge's partition
// pass storing the walk's points, then the one-pass tile kernel, whose last tile publishes the
// output count that the host waits for.
#pragma once

#include <cstddef>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/set_operations.cuh"
#include "../thread/set_operations.hpp"
#include "../tuning/set_operations.hpp"
#include "check_sorted.cuh"
#include "merge.cuh"
#include "primitives.cuh"
#include "result_counts.cuh"

namespace mergepath {
namespace device {

template <class Policy, set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
index_t launch_set_operation(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                             index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr int tile_span = Policy::tuning.tile_span();
  const index_t total = a_count + b_count;
  if (total == 0) return 0;
  const index_t num_tiles = detail::ceil_div<index_t>(total, tile_span);
  const index_t capacity = detail::set_output_capacity(Op, a_count, b_count);
  // The splits and the look-back status in one allocation: the host's work before the first
  // launch is time the GPU idles.
  std::size_t state_bytes = 0;
  MERGEPATH_CUDA_CHECK(kernel::set_tile_state::AllocationSize(static_cast<int>(num_tiles), state_bytes));
  const std::size_t splits_bytes =
      detail::ceil_div<std::size_t>(sizeof(set_split<index_t>) * (num_tiles + 1), 256) * 256;
  auto storage = ctx.allocate<unsigned char>(static_cast<index_t>(splits_bytes + state_bytes));
  auto* splits = reinterpret_cast<set_split<index_t>*>(storage.data());
  kernel::set_tile_state tile_state;
  MERGEPATH_CUDA_CHECK(tile_state.Init(static_cast<int>(num_tiles), storage.data() + splits_bytes, state_bytes));
  const kernel::count_words total_out = reserve_counts(ctx);
  // The merge's partition pass (samples, then a search narrowed by them), each split moved to the
  // walk's point in the same kernel.
  auto samples = launch_merge_partition<bounds::lower, 1, default_partition_sample_bytes>(
      ctx, a_keys, a_count, b_keys, b_count, tile_span, num_tiles + 1,
      kernel::store_set_split<AKeys, BKeys>{splits, tile_state, num_tiles}, comp);
  detail::launch_dependent(
      "set_operation_tile_kernel",
      kernel::set_operation_tile_kernel<Policy, Op, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp>,
      static_cast<unsigned>(num_tiles), Policy::tuning.block_threads, 0, ctx.stream(), a_keys, a_vals, b_keys, b_vals,
      static_cast<const set_split<index_t>*>(splits), num_tiles, tile_state, total_out, capacity, out_keys, out_vals,
      prefetch_distance(ctx, Policy::tuning.prefetch_tiles_per_sm), comp);
  return detail::min_of(wait_for_counts(ctx, total_out.sequence).first, capacity);
}

// The set operations of set_operations.hpp on a cuda_context, arguments already checked.
template <set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
index_t set_operation(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                      index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr bool by_key = !std::is_same_v<OutVals, std::nullptr_t>;
  return launch_set_operation<default_set_operation_policy<Op, kernel::value_of<AKeys>, by_key>, Op>(
      ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace device

namespace backend {
using device::set_operation;
}  // namespace backend
}  // namespace mergepath
