// segmented_sort and locality_sort on a cuda_context. The schedule: (indices only) a head
// bitfield; a blocksort (segmented, or the mergesort's for locality_sort); then per merge pass a
// partition launch that fills the pass's merge and copy queues and a launch of a fixed grid that
// serves them, ping-ponging between the caller's arrays and scratch arrays. Every tile is the
// same output range in every pass, so a tile copied once to the other buffer does nothing in the
// passes after, until it merges again. No launch waits for the host.
#pragma once

#include <cstdint>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/segmented_sort.cuh"
#include "../segsort_stats.hpp"
#include "../tuning/segmented_sort.hpp"
#include "check_sorted.cuh"
#include "merge.cuh"
#include "mergesort.cuh"

namespace mergepath {
namespace device {

// Checked mode: throws std::invalid_argument naming the first malformed head index.
template <class HeadsIt>
void check_heads(cuda_context& ctx, const char* algorithm, HeadsIt heads, index_t num_heads, index_t count) {
  if (!ctx.checked()) return;
  const index_t i = first_position_where(ctx, num_heads, bad_segment_head<HeadsIt>{heads, count});
  if (i < 0) return;
  const auto [value, previous] = value_and_previous(ctx, heads, i);
  detail::throw_bad_head(algorithm, i, value, previous, count);
}

// The head bitfield of a list of head indices, in a buffer from the context's pool.
template <class HeadsIt>
temp_buffer<std::uint32_t> head_flags_from_indices(cuda_context& ctx, HeadsIt heads, index_t num_heads,
                                                   index_t count) {
  const index_t words = head_flag_words(count);
  auto flags = ctx.allocate<std::uint32_t>(words);
  if (words > 0)
    MERGEPATH_CUDA_CHECK(cudaMemsetAsync(flags.data(), 0, static_cast<std::size_t>(words) * 4, ctx.stream()));
  if (num_heads > 0) {
    constexpr int threads = 256;
    int blocks = static_cast<int>(
        detail::min_of<index_t>(detail::ceil_div<index_t>(num_heads, threads), 32 * ctx.props().multiProcessorCount));
    detail::launch("head_flags_kernel", kernel::head_flags_kernel<HeadsIt>, blocks, threads, 0, ctx.stream(), heads,
                   num_heads, count, flags.data());
  }
  return flags;
}

// Segmented = false: locality_sort (no segments, head_flags unused; the mergesort's blocksort).
template <class Policy, bool Segmented, class Keys, class Vals, class Comp>
void launch_segmented_sort(cuda_context& ctx, Keys keys, Vals vals, index_t count, const std::uint32_t* head_flags,
                           Comp comp, segsort_stats* stats) {
  constexpr segmented_sort_tuning tuning = Policy::tuning;
  static_assert(tuning.tiles_nest(), "segmented_sort_tuning: the blocksort tile must be a whole number of merge tiles");
  constexpr index_t sort_tile = tuning.blocksort.tile_items();
  constexpr int merge_tile = tuning.merge.tile_items();

  const index_t sort_tiles = detail::ceil_div(count, sort_tile);
  const index_t num_tiles = detail::ceil_div<index_t>(count, merge_tile);
  int passes = 0;
  while ((index_t{1} << passes) < sort_tiles) ++passes;
  if (stats) *stats = {num_tiles, {}};
  if (count < 2) return;

  auto key_scratch = ctx.allocate<kernel::value_of<Keys>>(passes > 0 ? count : 0);
  value_scratch<Vals> val_scratch(ctx, passes > 0 ? count : 0);
  auto run_heads = ctx.allocate<kernel::segment_heads>(Segmented ? 2 * sort_tiles : 0);
  kernel::segment_heads* heads_of_pass[2] = {run_heads.data(), run_heads.data() + sort_tiles};
  auto copy_status = ctx.allocate<unsigned char>(passes > 0 ? num_tiles : 0);
  auto queues = ctx.allocate<kernel::pass_queues>(passes);
  auto merge_list = ctx.allocate<kernel::merge_job>(passes > 0 ? num_tiles : 0);
  auto copy_list = ctx.allocate<index_t>(passes > 0 ? num_tiles : 0);
  constexpr bool trusted_order = block::order_is_trusted<kernel::value_of<Keys>, Comp>;
  auto tile_splits = ctx.allocate<index_t>(passes > 0 && !trusted_order ? num_tiles : 0);
  if (passes > 0) {  // (the blocksort sets every tile's copy status)
    MERGEPATH_CUDA_CHECK(
        cudaMemsetAsync(queues.data(), 0, sizeof(kernel::pass_queues) * static_cast<std::size_t>(passes), ctx.stream()));
  }

  auto blocksort_into = [&](auto keys_out, auto vals_out, auto twin_keys, auto twin_vals) {
    using Output = kernel::blocksort_output<decltype(keys_out), decltype(vals_out), decltype(twin_keys),
                                            decltype(twin_vals)>;
    constexpr std::size_t shared_bytes = kernel::blocksort_layout<Policy, Keys, Vals>::bytes;
    constexpr int threads = tuning.blocksort.block_threads;
    constexpr auto sort_kernel = kernel::segmented_blocksort_kernel<Policy, Segmented, Keys, Vals, Output, Comp>;
    const Output out{keys_out, vals_out, twin_keys, twin_vals, copy_status.data(), passes > 0};
    (void)resident_blocks_per_sm<sort_kernel>(ctx, threads, shared_bytes);
    detail::launch("segmented_blocksort_kernel", sort_kernel, static_cast<unsigned>(sort_tiles), threads, shared_bytes,
                   ctx.stream(), keys, vals, count, head_flags, out, heads_of_pass[0], comp);
  };
  auto merge_pass = [&](int p, auto keys_in, auto vals_in, auto keys_out, auto vals_out) {
    using KeysIn = decltype(keys_in);
    using ValsIn = decltype(vals_in);
    const kernel::segsort_pass pass{count, sort_tile << p, num_tiles, merge_tile};
    constexpr int partition_threads = 128;
    const auto partition_blocks = static_cast<unsigned>(detail::ceil_div<index_t>(num_tiles, partition_threads - 1));
    kernel::pass_queues* pass_queues = queues.data() + p;
    const kernel::segment_heads* heads_in = Segmented ? heads_of_pass[p % 2] : nullptr;
    kernel::segment_heads* heads_out = Segmented ? heads_of_pass[(p + 1) % 2] : nullptr;
    // An order that is not trusted gets its splits searched and repaired first (kernel/split_repair.cuh).
    const index_t* given_splits = nullptr;
    if constexpr (!trusted_order) {
      detail::launch("segsort_split_kernel", kernel::segsort_split_kernel<Segmented, KeysIn, Comp>,
                     static_cast<unsigned>(detail::ceil_div<index_t>(num_tiles, partition_threads)), partition_threads,
                     0, ctx.stream(), keys_in, pass, heads_in, tile_splits.data(), ctx.split_repair_ticket(), comp);
      given_splits = tile_splits.data();
    }
    detail::launch("segsort_partition_kernel",
                   kernel::segsort_partition_kernel<Segmented, partition_threads, KeysIn, Comp>, partition_blocks,
                   partition_threads, 0, ctx.stream(), keys_in, pass, heads_in, heads_out, copy_status.data(),
                   pass_queues, merge_list.data(), copy_list.data(), given_splits, comp);

    constexpr auto pass_kernel =
        kernel::segsort_pass_kernel<Policy, KeysIn, ValsIn, decltype(keys_out), decltype(vals_out), Comp>;
    constexpr std::size_t shared_bytes = kernel::merge_layout_of<kernel::merge_pass_policy<Policy>, KeysIn, ValsIn>::bytes;
    const int per_sm = resident_blocks_per_sm<pass_kernel>(ctx, tuning.merge.block_threads, shared_bytes);
    const index_t grid = static_cast<index_t>(detail::min_of(per_sm, tuning.queue_blocks_per_sm)) *
                         ctx.props().multiProcessorCount;
    detail::launch("segsort_pass_kernel", pass_kernel, static_cast<unsigned>(detail::min_of(grid, num_tiles)),
                   tuning.merge.block_threads, shared_bytes, ctx.stream(), keys_in, vals_in, pass, pass_queues,
                   merge_list.data(), copy_list.data(), keys_out, vals_out, comp);
  };

  // Passes alternate direction, so an odd count starts from the scratch arrays.
  bool in_scratch = passes % 2 == 1;
  if (in_scratch)
    blocksort_into(key_scratch.data(), val_scratch.data(), keys, vals);
  else
    blocksort_into(keys, vals, key_scratch.data(), val_scratch.data());
  for (int p = 0; p < passes; ++p, in_scratch = !in_scratch) {
    if (in_scratch)
      merge_pass(p, key_scratch.data(), val_scratch.data(), keys, vals);
    else
      merge_pass(p, keys, vals, key_scratch.data(), val_scratch.data());
  }

  if (stats && passes > 0) {
    std::vector<kernel::pass_queues> counts(static_cast<std::size_t>(passes));
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(counts.data(), queues.data(), sizeof(kernel::pass_queues) * counts.size(),
                                         cudaMemcpyDeviceToHost, ctx.stream()));
    ctx.synchronize();
    for (const auto& q : counts)
      stats->passes.push_back({static_cast<std::int64_t>(q.merge_total), static_cast<std::int64_t>(q.copy_total)});
  }
}

template <class Policy, class Keys, class Vals, class HeadsIt, class Comp>
void sort_segments_at_heads(cuda_context& ctx, Keys keys, Vals vals, index_t count, HeadsIt heads, index_t num_heads,
                            Comp comp, segsort_stats* stats) {
  auto flags = head_flags_from_indices(ctx, heads, num_heads, count);
  launch_segmented_sort<Policy, true>(ctx, keys, vals, count, flags.data(), comp, stats);
}

// The calls of segmented_sort.hpp on a cuda_context, arguments already checked: Policy names the
// tuning (a type with `static constexpr segmented_sort_tuning tuning`).
template <class Policy = default_tuning, class KeysIt, class HeadsIt, class Comp>
void segmented_sort(cuda_context& ctx, KeysIt keys, index_t count, HeadsIt heads, index_t num_heads, Comp comp,
                    segsort_stats* stats) {
  using tuned = detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>>>;
  sort_segments_at_heads<tuned>(ctx, keys, kernel::no_values{}, count, heads, num_heads, comp, stats);
}

template <class Policy = default_tuning, class KeysIt, class ValsIt, class HeadsIt, class Comp>
void segmented_sort_pairs(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, HeadsIt heads, index_t num_heads,
                          Comp comp, segsort_stats* stats) {
  using tuned =
      detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>>>;
  sort_segments_at_heads<tuned>(ctx, keys, vals, count, heads, num_heads, comp, stats);
}

template <class Policy = default_tuning, class KeysIt, class Comp>
void segmented_sort_flags(cuda_context& ctx, KeysIt keys, index_t count, const std::uint32_t* head_flags, Comp comp,
                          segsort_stats* stats) {
  using tuned = detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>>>;
  launch_segmented_sort<tuned, true>(ctx, keys, kernel::no_values{}, count, head_flags, comp, stats);
}

template <class Policy = default_tuning, class KeysIt, class ValsIt, class Comp>
void segmented_sort_pairs_flags(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count,
                                const std::uint32_t* head_flags, Comp comp, segsort_stats* stats) {
  using tuned =
      detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>>>;
  launch_segmented_sort<tuned, true>(ctx, keys, vals, count, head_flags, comp, stats);
}

template <class Policy = default_tuning, class KeysIt, class Comp>
void locality_sort(cuda_context& ctx, KeysIt keys, index_t count, Comp comp, segsort_stats* stats) {
  using tuned = detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>>>;
  launch_segmented_sort<tuned, false>(ctx, keys, kernel::no_values{}, count, nullptr, comp, stats);
}

template <class Policy = default_tuning, class KeysIt, class ValsIt, class Comp>
void locality_sort_pairs(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp, segsort_stats* stats) {
  using tuned =
      detail::tuning_or<Policy, default_segmented_sort_policy<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>>>;
  launch_segmented_sort<tuned, false>(ctx, keys, vals, count, nullptr, comp, stats);
}

}  // namespace device

namespace backend {
using device::check_heads;
using device::locality_sort;
using device::locality_sort_pairs;
using device::segmented_sort;
using device::segmented_sort_flags;
using device::segmented_sort_pairs;
using device::segmented_sort_pairs_flags;
}  // namespace backend
}  // namespace mergepath
