// merge and merge_pairs on a cuda_context. The tiled schedule (every default): a pass that
// partitions the output into tiles by Merge Path, then one that merges every tile in shared
// memory; two launches. Small inputs take the chunked schedule instead (one launch, each block
// finding its own splits), and the streamed schedule (keys, opt-in through the tuning) is one
// launch too. None synchronizes.
#pragma once

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/merge.cuh"
#include "../kernel/merge_stream.cuh"
#include "../tuning/merge.hpp"
#include "check_sorted.cuh"
#include "primitives.cuh"

namespace mergepath {
namespace device {

// The finest sampling of a and b whose samples (partition_samples) fit SampleBytes: every
// 2^shift-th element, or -1 where even one sample of each does not fit (keys too large).
template <int SampleBytes, class AKey, class BKey>
int partition_sample_shift(index_t a_count, index_t b_count) {
  using samples = kernel::partition_samples<AKey, BKey>;
  if constexpr (SampleBytes <= 0) {
    return -1;
  } else {
    int shift = 0;
    while (samples(a_count, b_count, shift).bytes() > SampleBytes && (a_count >> shift) + (b_count >> shift) > 0)
      ++shift;
    return samples(a_count, b_count, shift).bytes() > SampleBytes ? -1 : shift;
  }
}

// The partition pass: store(p, ..., diag, split) for the split of output diag = p * tile_items,
// p < num_partitions (kernel::store_merge_split: partitions[p] = split). Every 2^k-th element of
// a and b, as finely as they fit SampleBytes, is gathered first and narrows each search in
// shared memory. Returns the samples' buffer: keep it until the kernel that reads the splits is
// launched, so that no stream-ordered free sits between the two (it would keep that kernel from
// overlapping this one's tail).
template <bounds Bounds, int Probes, int SampleBytes, class AIt, class BIt, class Comp, class Store>
[[nodiscard]] temp_buffer<uint4> launch_merge_partition(cuda_context& ctx, AIt a, index_t a_count, BIt b,
                                                        index_t b_count, index_t tile_items, index_t num_partitions,
                                                        Store store, Comp comp) {
  static_assert(SampleBytes >= 0 && SampleBytes <= 48 * 1024, "partition samples fit the default shared memory");
  using samples = kernel::partition_samples<kernel::value_of<AIt>, kernel::value_of<BIt>>;
  const int shift = partition_sample_shift<SampleBytes, kernel::value_of<AIt>, kernel::value_of<BIt>>(a_count, b_count);
  std::size_t shared_bytes = 0;
  temp_buffer<uint4> gathered;
  if (shift >= 0) {
    samples layout(a_count, b_count, shift);
    shared_bytes = layout.bytes();
    gathered = ctx.allocate<uint4>(static_cast<index_t>(shared_bytes / sizeof(uint4)));
    constexpr int sample_threads = 128;
    detail::launch_dependent("merge_samples_kernel", kernel::merge_samples_kernel<AIt, BIt>,
                             static_cast<unsigned>(detail::ceil_div<index_t>(
                                 detail::max_of<index_t>(layout.a_count + layout.b_count, 1), sample_threads)),
                             sample_threads, 0, ctx.stream(), a, a_count, b, b_count, shift,
                             reinterpret_cast<unsigned char*>(gathered.data()));
  }
  constexpr int threads = 256;
  detail::launch_dependent(
      "merge_partition_kernel", kernel::merge_partition_kernel<Bounds, Probes, AIt, BIt, Comp, Store>,
      static_cast<unsigned>(detail::ceil_div<index_t>(num_partitions, threads)), threads, shared_bytes, ctx.stream(), a,
      a_count, b, b_count, tile_items, num_partitions, shift, static_cast<const uint4*>(gathered.data()), store, comp);
  return gathered;
}

// The splits into partitions[0, num_partitions), made monotone under an order that is not
// trusted (kernel/split_repair.cuh) unless repair is false (load balancing, whose starts and
// item indices keep their splits in bounds and which checks its starts).
template <bounds Bounds, int Probes, int SampleBytes, class AIt, class BIt, class Comp>
[[nodiscard]] temp_buffer<uint4> launch_merge_partition(cuda_context& ctx, AIt a, index_t a_count, BIt b,
                                                        index_t b_count, index_t tile_items, index_t num_partitions,
                                                        index_t* partitions, Comp comp, bool repair = true) {
  const kernel::store_merge_split store{partitions, repair ? ctx.split_repair_ticket() : nullptr};
  return launch_merge_partition<Bounds, Probes, SampleBytes>(ctx, a, a_count, b, b_count, tile_items, num_partitions,
                                                             store, comp);
}

// The chunked schedule (merge_tuning::chunked_max_tiles): launched, and true returned, where each
// resident block would merge at most chunked_max_tiles tiles; else nothing happens.
template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
bool launch_merge_chunks(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                         index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  static_assert(tuning.stages == 1, "the chunk kernel holds one tile at a time");
  const index_t num_tiles = detail::ceil_div<index_t>(a_count + b_count, tuning.tile_items());
  constexpr std::size_t shared_bytes = kernel::merge_layout_of<Policy, AKeys, AVals>::bytes;
  constexpr auto chunk_kernel = kernel::merge_chunk_kernel<Policy, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp>;
  const int per_sm = resident_blocks_per_sm<chunk_kernel>(ctx, tuning.block_threads, shared_bytes);
  const index_t resident = static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount;
  const index_t chunk_tiles = detail::ceil_div(num_tiles, resident);
  if (chunk_tiles > tuning.chunked_max_tiles) return false;
  const index_t blocks = detail::ceil_div(num_tiles, chunk_tiles);
  detail::launch("merge_chunk_kernel", chunk_kernel, static_cast<unsigned>(blocks), tuning.block_threads, shared_bytes,
                 ctx.stream(), a_keys, a_vals, a_count, b_keys, b_vals, b_count, chunk_tiles, out_keys, out_vals, comp);
  return true;
}

// Policy with the small merges' chunk tiles (merge_tuning::small_block_threads), always chunked.
template <class Policy>
struct small_merge_policy {
  static constexpr merge_tuning tuning = [] {
    merge_tuning t = Policy::tuning;
    t.block_threads = t.small_block_threads;
    t.items_per_thread = t.small_items_per_thread;
    t.chunked_max_tiles = 1 << 30;
    t.small_block_threads = t.small_items_per_thread = 0;
    t.small_max_total = 0;
    return t;
  }();
};

template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
void launch_merge(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                  index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr index_t tile_items = tuning.tile_items();
  index_t total = a_count + b_count;
  if (total == 0) return;
  index_t num_tiles = detail::ceil_div(total, tile_items);
  constexpr std::size_t shared_bytes = kernel::merge_layout_of<Policy, AKeys, AVals>::bytes * tuning.stages;

  // The chunked schedules search each chunk's first split on their own: only where the order is
  // trusted (block/slice_check.cuh); the partition pass repairs its splits for any other.
  constexpr bool trusted_order = block::order_is_trusted<kernel::value_of<AKeys>, Comp> &&
                                 block::order_is_trusted<kernel::value_of<BKeys>, Comp>;
  if constexpr (trusted_order && tuning.small_block_threads > 0 && tuning.stages == 1)
    if (total <= tuning.small_max_total &&
        launch_merge_chunks<small_merge_policy<Policy>>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys,
                                                        out_vals, comp))
      return;
  if constexpr (trusted_order && tuning.chunked_max_tiles > 0 && tuning.stages == 1)
    if (launch_merge_chunks<Policy>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp))
      return;

  auto partitions = ctx.allocate<index_t>(num_tiles + 1);
  auto samples = launch_merge_partition<bounds::lower, tuning.partition_probes, tuning.partition_sample_bytes>(
      ctx, a_keys, a_count, b_keys, b_count, tile_items, num_tiles + 1, partitions.data(), comp);

  constexpr auto tile_kernel = kernel::merge_tile_kernel<Policy, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp>;
  int per_sm = resident_blocks_per_sm<tile_kernel>(ctx, tuning.block_threads, shared_bytes);
  index_t blocks = num_tiles;
  if constexpr (tuning.stages > 1)  // persistent: as many blocks as fit at once, each walking many tiles
    blocks = detail::min_of<index_t>(num_tiles, static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount);
  std::size_t out_item_bytes = sizeof(kernel::value_of<AKeys>);
  if constexpr (!std::is_same_v<AVals, kernel::no_values>) out_item_bytes += sizeof(kernel::value_of<AVals>);
  const double l2_bytes = static_cast<double>(ctx.props().l2CacheSize);
  const bool evict_first = tuning.evict_first_stores_past_l2 >= 0 &&
                           l2_bytes <= tuning.evict_first_stores_max_l2_mib * 1048576.0 &&
                           static_cast<double>(total) * out_item_bytes > tuning.evict_first_stores_past_l2 * l2_bytes;
  detail::launch_dependent("merge_tile_kernel", tile_kernel, static_cast<unsigned>(blocks), tuning.block_threads,
                           shared_bytes, ctx.stream(), a_keys, a_vals, b_keys, b_vals, total, partitions.data(),
                           num_tiles, out_keys, out_vals, prefetch_distance(ctx, tuning.prefetch_tiles_per_sm),
                           evict_first, comp);
}

// The streamed schedule: as many blocks as fit at once, each merging one contiguous chunk of
// whole tiles (kernel/merge_stream.cuh). One launch, no partition pass.
template <class Policy, class AIt, class BIt, class OutIt, class Comp>
void launch_merge_stream(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr index_t tile_items = tuning.tile_items();
  index_t total = a_count + b_count;
  if (total == 0) return;
  constexpr auto stream_kernel = kernel::merge_stream_kernel<Policy, AIt, BIt, OutIt, Comp>;
  constexpr std::size_t shared_bytes = kernel::merge_stream_layout<kernel::value_of<AIt>, tuning.tile_items()>::bytes;
  int per_sm = resident_blocks_per_sm<stream_kernel>(ctx, tuning.block_threads, shared_bytes);
  index_t tiles = detail::ceil_div(total, tile_items);
  index_t blocks = detail::min_of<index_t>(tiles, static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount);
  // Chunks stay below 2^30 elements (the kernel counts within a chunk in 32 bits).
  blocks = detail::max_of(blocks, detail::ceil_div(total, index_t{1} << 30));
  index_t chunk_items = detail::ceil_div(tiles, blocks) * tile_items;
  blocks = detail::ceil_div(total, chunk_items);
  detail::launch("merge_stream_kernel", stream_kernel, static_cast<unsigned>(blocks), tuning.block_threads,
                 shared_bytes, ctx.stream(), a, a_count, b, b_count, out, chunk_items, comp);
}

// The calls of merge.hpp on a cuda_context, arguments already checked: Policy names the tuning
// (a type with `static constexpr merge_tuning tuning`). Pairs always take the tiled schedule.
template <class Policy = default_tuning, class AIt, class BIt, class OutIt, class Comp>
void merge(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_merge_policy<kernel::value_of<AIt>>>;
  if constexpr (tuned::tuning.streamed)
    launch_merge_stream<tuned>(ctx, a, a_count, b, b_count, out, comp);
  else
    launch_merge<tuned>(ctx, a, kernel::no_values{}, a_count, b, kernel::no_values{}, b_count, out, kernel::no_values{},
                        comp);
}

template <class Policy = default_tuning, class AKeys, class AVals, class BKeys, class BVals, class OutKeys,
          class OutVals, class Comp>
void merge_pairs(cuda_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                 index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_merge_policy<kernel::value_of<AKeys>, kernel::value_of<AVals>>>;
  launch_merge<tuned>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace device

namespace backend {
using device::merge;
using device::merge_pairs;
}  // namespace backend
}  // namespace mergepath
