// binary_search, eytzinger_layout, eytzinger_search and batch_search on a cuda_context.
#pragma once

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <limits>
#include <type_traits>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/binary_search.cuh"
#include "../tuning/binary_search.hpp"
#include "check_sorted.cuh"
#include "mergesort.cuh"
#include "primitives.cuh"
#include "radix_sort.cuh"
#include "sorted_search.cuh"

namespace mergepath {
namespace device {

// A grid that covers n items with block_threads each, capped where more blocks only queue.
inline unsigned grid_for(const cuda_context& ctx, index_t n, int block_threads, int blocks_per_sm = 8) {
  index_t blocks = detail::ceil_div<index_t>(n, block_threads);
  return static_cast<unsigned>(detail::max_of<index_t>(
      1, detail::min_of<index_t>(blocks, index_t{blocks_per_sm} * ctx.props().multiProcessorCount)));
}

// The sorting path of batch_search: sorts the needles with their positions (CUB's radix sort
// where it orders keys as comp does: arithmetic keys under less / greater; else the mergesort),
// finds the sorted needles' bounds with sorted_search, and puts the bounds back in the needles'
// order. That last move is a sort too: the (position, bound) pairs radix-sorted by the positions'
// top 16 bits leave each bound within a small window of its place, so the final scatter writes
// whole lines, where a scatter from fully random positions writes partial sectors
// (docs/design/search.md#4-what-was-tried).
// Index (positions and bounds) is 32-bit where the counts allow: it halves the bytes moved.
template <bounds Bounds, class Index, class NeedleIt, class HayIt, class OutIt, class Comp>
void sort_then_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                      OutIt out, Comp comp) {
  using Key = kernel::value_of<NeedleIt>;
  constexpr int threads = 256;
  const unsigned grid = grid_for(ctx, needle_count, threads, 16);
  auto positions = ctx.allocate<Index>(needle_count);
  auto positions_alt = ctx.allocate<Index>(needle_count);
  detail::launch("iota_kernel", kernel::iota_kernel<Index>, grid, threads, 0, ctx.stream(), positions.data(),
                 needle_count);
  auto sorted_keys = ctx.allocate<Key>(needle_count);
  Index* sorted_positions = nullptr;
  if constexpr (radix_sortable<Key, Comp>) {
    // Read from the caller's needles where they are an array; copy other iterators first.
    temp_buffer<Key> copied;
    const Key* keys_in = nullptr;
    if constexpr (std::is_pointer_v<NeedleIt>) {
      keys_in = needles;
    } else {
      copied = ctx.allocate<Key>(needle_count);
      detail::launch("copy_kernel", kernel::copy_kernel<NeedleIt, Key*>, grid, threads, 0, ctx.stream(), needles,
                     needle_count, copied.data());
      keys_in = copied.data();
    }
    radix_sort_copy<Comp>(ctx, keys_in, static_cast<const Index*>(positions.data()), sorted_keys.data(),
                          positions_alt.data(), needle_count);
    sorted_positions = positions_alt.data();
  } else {
    detail::launch("copy_kernel", kernel::copy_kernel<NeedleIt, Key*>, grid, threads, 0, ctx.stream(), needles,
                   needle_count, sorted_keys.data());
    device::mergesort_pairs(ctx, sorted_keys.data(), positions.data(), needle_count, comp);
    sorted_positions = positions.data();
  }
  Index* spare_positions = sorted_positions == positions.data() ? positions_alt.data() : positions.data();
  auto bound = ctx.allocate<Index>(needle_count);
  device::sorted_search<Bounds, search::index, search::none>(ctx, sorted_keys.data(), needle_count, haystack,
                                                             haystack_count, bound.data(), nullptr, comp);
  sorted_keys = temp_buffer<Key>();  // back to the pool before the bounds' sort takes its own
  // Bounds back towards the needles' order: sorted by the positions' top (up to) 16 bits.
  const Index* scatter_positions = sorted_positions;
  const Index* scatter_bounds = bound.data();
  const int position_bits =
      needle_count > 1 ? detail::highest_bit(static_cast<std::uint64_t>(needle_count - 1)) + 1 : 0;
  temp_buffer<Index> bound_alt;
  if (position_bits > 0) {
    bound_alt = ctx.allocate<Index>(needle_count);
    cub::DoubleBuffer<Index> position_buffers(sorted_positions, spare_positions);
    cub::DoubleBuffer<Index> bound_buffers(bound.data(), bound_alt.data());
    const int low_bit = detail::max_of(0, position_bits - 16);
    with_cub_item_count(needle_count, [&](auto n) {
      std::size_t bytes = 0;
      MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, position_buffers, bound_buffers, n, low_bit,
                                                           position_bits, ctx.stream()));
      auto temp = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
      MERGEPATH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp.data(), bytes, position_buffers, bound_buffers, n,
                                                           low_bit, position_bits, ctx.stream()));
    });
    scatter_positions = position_buffers.Current();
    scatter_bounds = bound_buffers.Current();
  }
  detail::launch("scatter_kernel", kernel::scatter_kernel<Index, OutIt>, grid, threads, 0, ctx.stream(), scatter_bounds,
                 scatter_positions, needle_count, haystack_count, out);
}

// The calls of binary_search.hpp on a cuda_context, arguments already checked.
template <bounds Bounds, class NeedleIt, class HayIt, class OutIt, class Comp>
void binary_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                   OutIt out, Comp comp) {
  if (needle_count == 0) return;
  using Key = kernel::value_of<HayIt>;
  constexpr binary_search_tuning tuning = binary_search_tuning_for(90, sizeof(Key));
  const bool beyond_l2 =
      static_cast<std::size_t>(haystack_count) * sizeof(Key) > static_cast<std::size_t>(ctx.props().l2CacheSize);
  const int first_evict_first_step = beyond_l2 ? tuning.binary_evict_first_step : 64;
  auto search_with = [&](auto count) {
    detail::launch("binary_search_kernel",
                   kernel::binary_search_kernel<Bounds, decltype(count), NeedleIt, HayIt, OutIt, Comp>,
                   one_per_thread_grid(needle_count, tuning.block_threads), tuning.block_threads, 0, ctx.stream(),
                   needles, needle_count, haystack, count, out, comp, first_evict_first_step);
  };
  if (haystack_count <= std::numeric_limits<std::int32_t>::max())
    search_with(static_cast<std::int32_t>(haystack_count));
  else
    search_with(haystack_count);
}

template <class InIt, class OutIt>
void eytzinger_layout(cuda_context& ctx, InIt sorted, index_t count, OutIt tree) {
  if (count == 0) return;
  using Key = kernel::value_of<InIt>;
  constexpr binary_search_tuning tuning = binary_search_tuning_for(90, sizeof(Key));
  constexpr int items = tuning.layout_items(sizeof(Key));
  constexpr auto layout_kernel = kernel::eytzinger_layout_kernel<InIt, OutIt>;
  (void)resident_blocks_per_sm<layout_kernel>(ctx, tuning.block_threads, items * sizeof(Key));
  detail::launch("eytzinger_layout_kernel", layout_kernel,
                 static_cast<unsigned>(detail::ceil_div<index_t>(count, items)), tuning.block_threads,
                 items * sizeof(Key), ctx.stream(), sorted, count, items, tree);
}

template <bounds Bounds, class NeedleIt, class TreeIt, class OutIt, class Comp>
void eytzinger_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, TreeIt tree, index_t count, OutIt out,
                      Comp comp) {
  if (needle_count == 0) return;
  using Key = kernel::value_of<TreeIt>;
  constexpr binary_search_tuning tuning = binary_search_tuning_for(90, sizeof(Key));
  constexpr index_t cache_slots = detail::max_of<index_t>(1, tuning.cached_tree_bytes / static_cast<int>(sizeof(Key)));
  // Whole levels only: nodes 1 .. 2^levels - 1.
  index_t cached = 0;
  while (2 * cached + 1 <= detail::min_of(cache_slots, count)) cached = 2 * cached + 1;
  const std::size_t shared_bytes = static_cast<std::size_t>(cached) * sizeof(Key);
  const int first_evict_first_level =
      first_uncached_tree_level(static_cast<std::size_t>(ctx.props().l2CacheSize), sizeof(Key));
  auto search_with = [&](auto node) {
    constexpr auto search_kernel =
        kernel::eytzinger_search_kernel<Bounds, decltype(node), NeedleIt, TreeIt, OutIt, Comp>;
    (void)resident_blocks_per_sm<search_kernel>(ctx, tuning.search_block_threads, cache_slots * sizeof(Key));
    detail::launch("eytzinger_search_kernel", search_kernel,
                   one_per_thread_grid(needle_count, tuning.search_block_threads), tuning.search_block_threads,
                   shared_bytes, ctx.stream(), needles, needle_count, tree, count, cached, first_evict_first_level, out,
                   comp);
  };
  if (count <= (index_t{1} << 30))
    search_with(std::uint32_t{});
  else
    search_with(index_t{});
}

template <bounds Bounds, class NeedleIt, class HayIt, class OutIt, class Comp>
void batch_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                  OutIt out, Comp comp, search_strategy strategy) {
  if (strategy == search_strategy::automatic) strategy = search_strategy_for(true, needle_count, haystack_count);
  if (strategy == search_strategy::per_needle || needle_count == 0) {
    device::binary_search<Bounds>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
    return;
  }
  constexpr index_t int32_limit = index_t{1} << 31;
  if (needle_count < int32_limit && haystack_count < int32_limit)
    sort_then_search<Bounds, std::uint32_t>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
  else
    sort_then_search<Bounds, index_t>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
}

}  // namespace device

namespace backend {
using device::batch_search;
using device::binary_search;
using device::eytzinger_layout;
using device::eytzinger_search;
}  // namespace backend
}  // namespace mergepath
