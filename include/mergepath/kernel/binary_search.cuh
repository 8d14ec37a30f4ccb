// The GPU search kernels: one search per needle in a sorted array or an Eytzinger tree, the
// tree's layout, and the small moves of batch_search's sorting path.
#pragma once

#include "../detail/cache_hint.cuh"
#include "../detail/config.hpp"
#include "../thread/binary_search.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

template <class It>
using out_value = typename std::iterator_traits<It>::value_type;

// One search per needle. Steps from `first_evict_first_step` on read evict-first (those levels of
// a haystack larger than L2 are each read about once); needles and bounds stream. Count: the
// steps' index type, int where the haystack allows (half the instructions of 64-bit steps).
template <bounds Bounds, class Count, class NeedleIt, class HayIt, class OutIt, class Comp>
__global__ void binary_search_kernel(NeedleIt needles, index_t needle_count, HayIt haystack, Count haystack_count,
                                     OutIt out, Comp comp, int first_evict_first_step) {
  const detail::l2_evict_first_loader loader;
  auto load = [&](HayIt it, int step) { return loader.load(it, step >= first_evict_first_step); };
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < needle_count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const auto x = detail::load_streaming(needles, i);
    detail::store_streaming(
        out, i, static_cast<out_value<OutIt>>(binary_search_bound<Bounds>(haystack, haystack_count, x, comp, load)));
  }
}

// Level `below` of the perfect tree (counted from its bottom) holds the in-order positions
// (2j + 1) 2^below - 1, j = 0, 1, ...: the first j whose position is at or after `position`.
MERGEPATH_HD inline index_t first_slot_at_or_after(index_t position, int below) {
  index_t t = position + 1 - (index_t{1} << below);
  return t <= 0 ? 0 : (t + (index_t{1} << (below + 1)) - 1) >> (below + 1);
}

// Block b lays out sorted[b * items, (b + 1) * items): it stages them in shared memory, then
// writes the tree level by level, where its keys fill one contiguous run of nodes per level, so
// every warp stores whole lines. (Scattering each key to its node from registers wrote a few
// nodes per level per warp, and was much slower: docs/design/search.md#4-what-was-tried.)
//
// In the perfect tree of height h, the keys below `below` levels sit at in-order positions
// (2j + 1) 2^below - 1 and are node 2^(h - 1 - below) + j; the real tree's sorted index i is
// that position for i < 2m (m: keys on the last level) and 2i - 2m + 1 after (eytzinger_shape).
template <class InIt, class OutIt>
__global__ void eytzinger_layout_kernel(InIt sorted, index_t count, int items, OutIt tree) {
  using Key = value_of<InIt>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* keys = reinterpret_cast<Key*>(shared_bytes);
  const eytzinger_shape shape(count);
  const index_t begin = blockIdx.x * static_cast<index_t>(items);
  const index_t end = detail::min_of(begin + items, count);
  for (index_t i = begin + threadIdx.x; i < end; i += blockDim.x) keys[i - begin] = sorted[i];
  __syncthreads();
  const index_t m = shape.last_level;
  for (int below = 0; below < shape.height; ++below) {
    const index_t level_first = index_t{1} << (shape.height - 1 - below);  // node of j = 0
    // Sorted indices below 2m: position = i.
    index_t lo = begin, hi = detail::min_of(end, 2 * m);
    if (lo < hi) {
      const index_t j_end = first_slot_at_or_after(hi, below);
      for (index_t j = first_slot_at_or_after(lo, below) + threadIdx.x; j < j_end; j += blockDim.x)
        tree[level_first + j - 1] = keys[((2 * j + 1) << below) - 1 - begin];
    }
    // From 2m on (levels above the last only): the position is 2i - 2m + 1, so
    // i - m = (2j + 1) 2^(below - 1) - 1.
    lo = detail::max_of(begin, 2 * m), hi = end;
    if (below >= 1 && lo < hi) {
      const index_t j_end = first_slot_at_or_after(hi - m, below - 1);
      for (index_t j = first_slot_at_or_after(lo - m, below - 1) + threadIdx.x; j < j_end; j += blockDim.x)
        tree[level_first + j - 1] = keys[m + ((2 * j + 1) << (below - 1)) - 1 - begin];
    }
  }
}

// Every search starts at the root, so the tree's first `cached` nodes (whole top levels) are
// loaded once per block into shared memory; the descent continues in global memory below them,
// evict-first from level `first_evict_first_level` on (the levels that do not fit in L2). Node:
// the descent's index type, 32-bit unsigned where the tree allows (count <= 2^30).
template <bounds Bounds, class Node, class NeedleIt, class TreeIt, class OutIt, class Comp>
__global__ void eytzinger_search_kernel(NeedleIt needles, index_t needle_count, TreeIt tree, index_t count,
                                        index_t cached, int first_evict_first_level, OutIt out, Comp comp) {
  using Key = value_of<TreeIt>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* top = reinterpret_cast<Key*>(shared_bytes);
  for (index_t k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const detail::l2_evict_first_loader loader;
  const eytzinger_shape shape(count);
  const Node tree_count = static_cast<Node>(count);
  const Node evict_first_node =
      Node{1} << detail::min_of(first_evict_first_level, static_cast<int>(8 * sizeof(Node)) - 2);
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < needle_count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const auto x = detail::load_streaming(needles, i);
    Node k = 1;
    while (k <= cached) k = 2 * k + (detail::goes_past<Bounds>(top[k - 1], x, comp) ? 1 : 0);
    while (k <= tree_count)
      k = 2 * k + (detail::goes_past<Bounds>(loader.load(tree + (k - 1), k >= evict_first_node), x, comp) ? 1 : 0);
    // The descent's last node is at most 2 * count + 1: a 32-bit Node leaves ~k nonzero.
    k >>= detail::trailing_zeros(static_cast<std::uint64_t>(static_cast<Node>(~k))) + 1;
    detail::store_streaming(out, i, static_cast<out_value<OutIt>>(k == 0 ? count : shape.sorted_index(k)));
  }
}

template <class Index>
__global__ void iota_kernel(Index* x, index_t n) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    x[i] = i;
}

template <class InIt, class OutIt>
__global__ void copy_kernel(InIt in, index_t n, OutIt out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// out[position[i]] = bound[i], clamped to [0, haystack_count]: a haystack that is not sorted
// gives unspecified bounds, but never ones outside the haystack.
template <class Index, class OutIt>
__global__ void scatter_kernel(const Index* bound, const Index* position, index_t n, index_t haystack_count,
                               OutIt out) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[position[i]] = static_cast<out_value<OutIt>>(
        detail::min_of<index_t>(detail::max_of<index_t>(static_cast<index_t>(bound[i]), 0), haystack_count));
}

}  // namespace kernel
}  // namespace mergepath
