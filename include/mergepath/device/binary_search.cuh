// binary_search, eytzinger_layout, eytzinger_search and batch_search on a cuda_context.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <cstdint>
#include <type_traits>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/binary_search.cuh"
#include "../tuning/binary_search.hpp"
#include "mergesort.cuh"
#include "sorted_search.cuh"

namespace mergepath {
namespace device {

// A grid that covers n items with block_threads each, capped where more blocks only queue.
inline unsigned grid_for(const cuda_context& ctx, index_t n, int block_threads, int blocks_per_sm = 8) {
  index_t blocks = detail::ceil_div<index_t>(n, block_threads);
  return static_cast<unsigned>(
      detail::max_of<index_t>(1, detail::min_of<index_t>(blocks, index_t{blocks_per_sm} * ctx.props().multiProcessorCount)));
}

// Whether CUB's radix sort orders T as Comp does (up to ties, which a stable search ignores).
template <class T, class Comp>
constexpr bool radix_sortable = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> &&
                                (std::is_same_v<Comp, less<>> || std::is_same_v<Comp, less<T>> ||
                                 std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<T>>);

// The sorting path of batch_search: sorts a copy of the needles with their positions (CUB's
// radix sort where it orders keys as comp does: arithmetic keys under less / greater; else the
// mergesort), finds the sorted needles' bounds with sorted_search, and scatters them back.
// Index (positions and bounds) is 32-bit where the counts allow: it halves the bytes the sort
// and the scatter move.
template <bounds Bounds, class Index, class NeedleIt, class HayIt, class OutIt, class Comp>
void sort_then_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack,
                      index_t haystack_count, OutIt out, Comp comp) {
  using Key = kernel::value_of<NeedleIt>;
  constexpr int threads = 256;
  const unsigned grid = grid_for(ctx, needle_count, threads, 16);
  auto keys = ctx.allocate<Key>(needle_count);
  auto positions = ctx.allocate<Index>(needle_count);
  detail::launch("copy_kernel", kernel::copy_kernel<NeedleIt, Key*>, grid, threads, 0, ctx.stream(), needles,
                 needle_count, keys.data());
  detail::launch("iota_kernel", kernel::iota_kernel<Index>, grid, threads, 0, ctx.stream(), positions.data(),
                 needle_count);
  temp_buffer<Key> keys_alt;
  temp_buffer<Index> positions_alt;
  Key* sorted_keys = keys.data();
  Index* sorted_positions = positions.data();
  if constexpr (radix_sortable<Key, Comp>) {
    keys_alt = ctx.allocate<Key>(needle_count);
    positions_alt = ctx.allocate<Index>(needle_count);
    cub::DoubleBuffer<Key> key_buffers(keys.data(), keys_alt.data());
    cub::DoubleBuffer<Index> position_buffers(positions.data(), positions_alt.data());
    constexpr bool down = std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<Key>>;
    std::size_t bytes = 0;
    auto sort = [&](void* temp) {
      if constexpr (down)
        return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, key_buffers, position_buffers, needle_count, 0,
                                                         static_cast<int>(sizeof(Key) * 8), ctx.stream());
      else
        return cub::DeviceRadixSort::SortPairs(temp, bytes, key_buffers, position_buffers, needle_count, 0,
                                               static_cast<int>(sizeof(Key) * 8), ctx.stream());
    };
    MERGEPATH_CUDA_CHECK(sort(nullptr));
    auto temp = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
    MERGEPATH_CUDA_CHECK(sort(temp.data()));
    sorted_keys = key_buffers.Current();
    sorted_positions = position_buffers.Current();
  } else {
    mergesort_pairs(ctx, keys.data(), positions.data(), needle_count, comp);
  }
  auto bound = ctx.allocate<Index>(needle_count);
  sorted_search<Bounds>(ctx, sorted_keys, needle_count, haystack, haystack_count, bound.data(), comp);
  detail::launch("scatter_kernel", kernel::scatter_kernel<Index, OutIt>, grid, threads, 0, ctx.stream(), bound.data(),
                 sorted_positions, needle_count, haystack_count, out);
}

}  // namespace device

template <bounds Bounds = bounds::lower, class NeedleIt, class HayIt, class OutIt, class Comp = less<>>
void binary_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                   OutIt out, Comp comp = {}) {
  detail::require_range("binary_search", "needles", needles, needle_count);
  detail::require_range("binary_search", "haystack", haystack, haystack_count);
  detail::require_range("binary_search", "out", out, needle_count);
  if (needle_count == 0) return;
  constexpr int threads = binary_search_tuning{}.block_threads;
  detail::launch("binary_search_kernel", kernel::binary_search_kernel<Bounds, NeedleIt, HayIt, OutIt, Comp>,
                 device::grid_for(ctx, needle_count, threads, 16), threads, 0, ctx.stream(), needles, needle_count,
                 haystack, haystack_count, out, comp);
}

template <class InIt, class OutIt>
void eytzinger_layout(cuda_context& ctx, InIt sorted, index_t count, OutIt tree) {
  detail::require_range("eytzinger_layout", "sorted", sorted, count);
  detail::require_range("eytzinger_layout", "tree", tree, count);
  if (count == 0) return;
  constexpr binary_search_tuning tuning = binary_search_tuning_for(90, sizeof(kernel::value_of<InIt>));
  const index_t per_block = tuning.layout_block_items;
  detail::launch("eytzinger_layout_kernel", kernel::eytzinger_layout_kernel<InIt, OutIt>,
                 static_cast<unsigned>(detail::ceil_div(count, per_block)), tuning.block_threads, 0, ctx.stream(),
                 sorted, count, per_block, tree);
}

template <bounds Bounds = bounds::lower, class NeedleIt, class TreeIt, class OutIt, class Comp = less<>>
void eytzinger_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, TreeIt tree, index_t count, OutIt out,
                      Comp comp = {}) {
  detail::require_range("eytzinger_search", "needles", needles, needle_count);
  detail::require_range("eytzinger_search", "tree", tree, count);
  detail::require_range("eytzinger_search", "out", out, needle_count);
  if (needle_count == 0) return;
  using Key = kernel::value_of<TreeIt>;
  constexpr binary_search_tuning tuning = binary_search_tuning_for(90, sizeof(Key));
  constexpr index_t cache_slots = detail::max_of<index_t>(1, tuning.cached_tree_bytes / static_cast<int>(sizeof(Key)));
  // Whole levels only: nodes 1 .. 2^levels - 1.
  index_t cached = 0;
  while (2 * cached + 1 <= detail::min_of(cache_slots, count)) cached = 2 * cached + 1;
  const std::size_t shared_bytes = static_cast<std::size_t>(cached) * sizeof(Key);
  constexpr auto search_kernel = kernel::eytzinger_search_kernel<Bounds, NeedleIt, TreeIt, OutIt, Comp>;
  (void)device::resident_blocks_per_sm<search_kernel>(ctx, tuning.search_block_threads, cache_slots * sizeof(Key));
  detail::launch("eytzinger_search_kernel", search_kernel,
                 device::grid_for(ctx, needle_count, tuning.search_block_threads, 2048 / tuning.search_block_threads),
                 tuning.search_block_threads, shared_bytes, ctx.stream(), needles, needle_count, tree, count, cached, out,
                 comp);
}

template <bounds Bounds = bounds::lower, class NeedleIt, class HayIt, class OutIt, class Comp = less<>>
void batch_search(cuda_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                  OutIt out, Comp comp = {}, search_strategy strategy = search_strategy::automatic) {
  detail::require_range("batch_search", "needles", needles, needle_count);
  detail::require_range("batch_search", "haystack", haystack, haystack_count);
  detail::require_range("batch_search", "out", out, needle_count);
  if (strategy == search_strategy::automatic) strategy = search_strategy_for(true, needle_count, haystack_count);
  if (strategy == search_strategy::per_needle || needle_count == 0) {
    binary_search<Bounds>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
    return;
  }
  constexpr index_t int32_limit = index_t{1} << 31;
  if (needle_count < int32_limit && haystack_count < int32_limit)
    device::sort_then_search<Bounds, std::uint32_t>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
  else
    device::sort_then_search<Bounds, index_t>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
}

}  // namespace mergepath
