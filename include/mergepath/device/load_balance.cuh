// The load-balancing family on a cuda_context (load_balance.hpp documents the calls). Every call
// is the merge partition pass over (segment starts, items) and one tile kernel; the reductions
// add a fix-up of the segments open across tile ends. None synchronizes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/load_balance.cuh"
#include "../kernel/segmented_reduce.cuh"
#include "../thread/load_balance.hpp"
#include "../tuning/load_balance.hpp"
#include "check_sorted.cuh"
#include "merge.cuh"

namespace mergepath {
namespace device {

// Argument checks, then (checked mode) the starts' data precondition, before anything is written.
template <class StartsIt>
void check_segments(cuda_context& ctx, const char* algorithm, index_t count, StartsIt starts, index_t num_segments) {
  detail::require_segments(algorithm, count, num_segments);
  detail::require_range(algorithm, "segment_starts", starts, num_segments);
  if (!ctx.checked()) return;
  const index_t s = first_position_where(ctx, num_segments, bad_segment_start<StartsIt>{starts, count});
  if (s < 0) return;
  const auto [value, previous] = value_and_previous(ctx, starts, s);
  detail::throw_bad_start(algorithm, s, value, previous, count);
}

// The tiles' splits of the path: splits[t] = the starts among its first t * tile_items steps.
// The merge's partition pass with the starts as a and the items (no memory) as b, three probes a
// step. Its samples pay only where the starts overflow L2 (docs/design/load-balance.md#tuning).
// Keep the samples until the tile kernel is launched (launch_merge_partition says why).
struct load_balance_splits {
  temp_buffer<index_t> splits;
  temp_buffer<uint4> samples;
};

template <class Policy, class StartsIt>
load_balance_splits split_load_balance_path(cuda_context& ctx, index_t count, StartsIt starts, index_t num_segments,
                                            index_t num_tiles) {
  constexpr int probes = 3;
  using start_t = typename std::iterator_traits<StartsIt>::value_type;
  load_balance_splits result{ctx.allocate<index_t>(num_tiles + 1), {}};
  auto partition = [&](auto sample_bytes) {
    return launch_merge_partition<bounds::lower, probes, decltype(sample_bytes)::value>(
        ctx, starts, num_segments, counting_sequence{0}, count, Policy::tuning.tile_items(), num_tiles + 1,
        result.splits.data(), item_before_start{}, false);
  };
  const bool starts_fit_l2 =
      static_cast<std::size_t>(num_segments) * sizeof(start_t) <= static_cast<std::size_t>(ctx.props().l2CacheSize);
  if (starts_fit_l2)
    result.samples = partition(std::integral_constant<int, 0>{});
  else
    result.samples = partition(std::integral_constant<int, default_partition_sample_bytes>{});
  return result;
}

template <class Policy, class Func, class StartsIt>
void launch_transform_lbs(cuda_context& ctx, Func f, index_t count, StartsIt starts, index_t num_segments) {
  const index_t total = count + num_segments;
  if (count == 0) return;  // nothing to call f for
  const index_t num_tiles = detail::ceil_div<index_t>(total, Policy::tuning.tile_items());
  auto path = split_load_balance_path<Policy>(ctx, count, starts, num_segments, num_tiles);
  const auto* splits = static_cast<const index_t*>(path.splits.data());
  if constexpr (kernel::stores_item_values<Func>::value)  // a value per item: whole chunks at a time
    detail::launch_dependent("store_lbs_values_kernel", kernel::store_lbs_values_kernel<Policy, Func, StartsIt>,
                             static_cast<unsigned>(num_tiles), Policy::tuning.block_threads, 0, ctx.stream(), f, count,
                             starts, num_segments, splits,
                             prefetch_distance(ctx, Policy::tuning.prefetch_tiles_per_sm));
  else
    detail::launch_dependent("transform_lbs_kernel", kernel::transform_lbs_kernel<Policy, Func, StartsIt>,
                             static_cast<unsigned>(num_tiles), Policy::tuning.block_threads, 0, ctx.stream(), f, count,
                             starts, num_segments, splits);
}

// What segmented_reduce's tiles leave for the fix-up of the segments open across tile ends (a head
// and a tail a tile), and that fix-up: a block per threads * items tiles, its prefix from the
// blocks before (kernel::fixup_handover), its flags cleared by the tile kernel.
template <class T>
struct segmented_reduce_fixup {
  static constexpr int threads = 256, items = sizeof(T) <= 8 ? 4 : 1;
  index_t num_tiles, blocks;
  temp_buffer<kernel::tile_head<T>> heads;
  temp_buffer<segment_partial<T>> tails, aggregates;
  temp_buffer<int> ready;

  segmented_reduce_fixup(cuda_context& ctx, index_t tiles)
      : num_tiles(tiles),
        blocks(detail::ceil_div<index_t>(tiles, threads * items)),
        heads(ctx.allocate<kernel::tile_head<T>>(tiles)),
        tails(ctx.allocate<segment_partial<T>>(tiles)),
        aggregates(ctx.allocate<segment_partial<T>>(blocks)),
        ready(ctx.allocate<int>(blocks)) {}

  kernel::fixup_handover<T> handover() { return {aggregates.data(), ready.data()}; }

  template <class OutIt, class Op>
  void launch(cuda_context& ctx, index_t num_segments, OutIt out, T init, Op op) {
    detail::launch_dependent("segmented_reduce_fixup_kernel",
                             kernel::segmented_reduce_fixup_kernel<threads, items, T, OutIt, Op>,
                             static_cast<unsigned>(blocks), threads, 0, ctx.stream(),
                             static_cast<const kernel::tile_head<T>*>(heads.data()),
                             static_cast<const segment_partial<T>*>(tails.data()), num_tiles, num_segments, out, init,
                             op, handover());
  }
};

// segmented_reduce over long segments (segmented_reduce_stream_tuning): the streaming kernel, a
// block per SM slot (at most max_blocks where that is above 0, as the tests ask, and as many as
// the context has hand-on flags for). values must be 16-byte aligned and count above 0.
template <class Policy = segmented_reduce_stream_policy, class T, class StartsIt, class OutIt, class Op>
void launch_segmented_reduce_stream(cuda_context& ctx, const T* values, index_t count, StartsIt starts,
                                    index_t num_segments, OutIt out, T init, Op op, index_t max_blocks = 0) {
  constexpr segmented_reduce_stream_tuning tuning = Policy::tuning;
  constexpr int threads = tuning.block_threads;
  const index_t num_subtiles = detail::ceil_div<index_t>(count, threads * tuning.items_per_thread<T>());
  constexpr auto* stream_kernel =
      kernel::segmented_reduce_stream_kernel<threads, tuning.vectors_per_thread, tuning.stages,
                                             tuning.min_blocks_per_sm, tuning.one_start_reduce, T, StartsIt, OutIt, Op>;
  constexpr int ring_bytes = tuning.ring_bytes();
  const int per_sm = resident_blocks_per_sm<stream_kernel>(ctx, threads, ring_bytes, true);
  index_t blocks = static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount;
  if (max_blocks > 0) blocks = detail::min_of(blocks, max_blocks);
  blocks = detail::min_of<index_t>(blocks, cuda_context::flag_word_count - kernel::hand_on_words::first_flag);
  blocks = detail::min_of(blocks, num_subtiles);
  auto scans = ctx.allocate<segment_partial<T>>(2 * blocks);
  const kernel::block_hand_on<T> hand_on{ctx.numbered_flag_words(), scans.data(), scans.data() + blocks};
  detail::launch_dependent("segmented_reduce_stream_kernel", stream_kernel, static_cast<unsigned>(blocks), threads,
                           ring_bytes, ctx.stream(), values, count, starts, num_segments, num_subtiles, out, init, op,
                           hand_on);
}

// segmented_reduce over tiles of the merge path: the partition pass, the tile kernel, the fix-up.
template <class Policy, class ValueAt, class StartsIt, class OutIt, class T, class Op>
void launch_segmented_reduce_tiles(cuda_context& ctx, ValueAt value_at, index_t count, StartsIt starts,
                                   index_t num_segments, OutIt out, T init, Op op) {
  const index_t total = count + num_segments;
  if (num_segments == 0) return;  // then count is 0 too: no output
  const index_t num_tiles = detail::ceil_div<index_t>(total, Policy::tuning.tile_items());
  auto path = split_load_balance_path<Policy>(ctx, count, starts, num_segments, num_tiles);
  segmented_reduce_fixup<T> fixup(ctx, num_tiles);
  detail::launch_dependent("segmented_reduce_kernel",
                           kernel::segmented_reduce_kernel<Policy, ValueAt, StartsIt, OutIt, T, Op>,
                           static_cast<unsigned>(num_tiles), Policy::tuning.block_threads, 0, ctx.stream(), value_at,
                           count, starts, num_segments, static_cast<const index_t*>(path.splits.data()), out, init, op,
                           fixup.heads.data(), fixup.tails.data(), fixup.handover(), fixup.blocks);
  fixup.launch(ctx, num_segments, out, init, op);
}

// The tiles, or the streaming path for long segments of a plain, 16-byte aligned array of 4-, 8-
// or 16-byte values, at one of two shapes by the mean length (tuning/load_balance.hpp).
template <class Policy, class ValueAt, class StartsIt, class OutIt, class T, class Op>
void launch_segmented_reduce(cuda_context& ctx, ValueAt value_at, index_t count, StartsIt starts,
                             index_t num_segments, OutIt out, T init, Op op) {
  if constexpr (kernel::reads_values_directly<ValueAt, T>::value && sizeof(T) >= 4 && 16 % sizeof(T) == 0) {
    const T* values = value_at.values;
    const index_t mean = num_segments > 0 ? count / num_segments : 0;
    if (reinterpret_cast<std::uintptr_t>(values) % 16 == 0) {
      if (mean >= segmented_reduce_stream.min_mean)
        return launch_segmented_reduce_stream(ctx, values, count, starts, num_segments, out, init, op);
      if (mean >= segmented_reduce_stream_mid.min_mean)
        return launch_segmented_reduce_stream<segmented_reduce_stream_mid_policy>(ctx, values, count, starts,
                                                                                  num_segments, out, init, op);
    }
  }
  launch_segmented_reduce_tiles<Policy>(ctx, value_at, count, starts, num_segments, out, init, op);
}

// What load_balancing_search and interval_expand store for each item: a value of the item alone,
// so the tiles store chunks of consecutive items (kernel::store_item_values).
template <class OutIt>
using write_segment = kernel::store_item_values<OutIt, kernel::item_segment>;
template <class ValuesIt, class OutIt>
using expand_values = kernel::store_item_values<OutIt, kernel::segment_value<ValuesIt>>;

// The calls of load_balance.hpp on a cuda_context, arguments already checked: Policy names the
// tuning (tuning/load_balance.hpp) where the caller names one.
template <class Policy = default_tuning, class Func, class StartsIt>
void transform_lbs(cuda_context& ctx, Func f, index_t count, StartsIt starts, index_t num_segments) {
  launch_transform_lbs<detail::tuning_or<Policy, default_transform_lbs_policy>>(ctx, f, count, starts, num_segments);
}

template <class StartsIt, class OutIt>
void load_balancing_search(cuda_context& ctx, index_t count, StartsIt starts, index_t num_segments, OutIt out) {
  const write_segment<OutIt> write{out, {}};
  if (count / load_balancing_search_short_mean < num_segments)  // short segments: a longer tile
    launch_transform_lbs<load_balancing_search_short_policy>(ctx, write, count, starts, num_segments);
  else
    launch_transform_lbs<load_balancing_search_policy>(ctx, write, count, starts, num_segments);
}

template <class ValuesIt, class StartsIt, class OutIt>
void interval_expand(cuda_context& ctx, ValuesIt values, index_t count, StartsIt starts, index_t num_segments,
                     OutIt out) {
  launch_transform_lbs<interval_expand_policy>(ctx, expand_values<ValuesIt, OutIt>{out, {values}}, count, starts,
                                               num_segments);
}

// A named policy takes the tiles (the tests' small shapes); the default picks tiles or streaming.
template <class Policy = default_tuning, class ValueAt, class StartsIt, class OutIt, class T, class Op>
void segmented_reduce(cuda_context& ctx, ValueAt value_at, index_t count, StartsIt starts, index_t num_segments,
                      OutIt out, T init, Op op) {
  if constexpr (std::is_same_v<Policy, default_tuning>)
    launch_segmented_reduce<default_segmented_reduce_policy<T>>(ctx, value_at, count, starts, num_segments, out, init,
                                                                op);
  else
    launch_segmented_reduce_tiles<Policy>(ctx, value_at, count, starts, num_segments, out, init, op);
}

}  // namespace device

namespace backend {
using device::check_segments;
using device::interval_expand;
using device::load_balancing_search;
using device::segmented_reduce;
using device::transform_lbs;
}  // namespace backend
}  // namespace mergepath
