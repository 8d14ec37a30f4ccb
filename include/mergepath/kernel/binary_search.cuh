// The GPU search kernels: one search per needle in a sorted array or an Eytzinger tree, the
// tree's layout, and the small moves of batch_search's sorting path.
#pragma once

#include "../detail/config.hpp"
#include "../thread/binary_search.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

template <class It>
using out_value = typename std::iterator_traits<It>::value_type;

template <bounds Bounds, class NeedleIt, class HayIt, class OutIt, class Comp>
__global__ void binary_search_kernel(NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                                     OutIt out, Comp comp) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < needle_count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    out[i] = static_cast<out_value<OutIt>>(binary_search_bound<Bounds>(haystack, haystack_count, needles[i], comp));
}

// Block b scatters sorted[b * per_block, (b + 1) * per_block) to its tree nodes: reads stream,
// and within a block each level's writes land next to each other (the last level's in one
// contiguous run, the level above in half as many), so DRAM sees whole sectors. (A grid-stride
// loop, or gathering in tree order, measured 2.9x and 2.8x a copy on an H200; this 2.5x.)
template <class InIt, class OutIt>
__global__ void eytzinger_layout_kernel(InIt sorted, index_t count, index_t per_block, OutIt tree) {
  const eytzinger_shape shape(count);
  const index_t begin = blockIdx.x * per_block;
  const index_t end = detail::min_of(begin + per_block, count);
  for (index_t i = begin + threadIdx.x; i < end; i += blockDim.x) tree[shape.node_of(i) - 1] = sorted[i];
}

// Every search starts at the root, so the tree's first `cached` nodes (whole top levels) are
// loaded once per block into shared memory; the descent continues in global memory below them.
template <bounds Bounds, class NeedleIt, class TreeIt, class OutIt, class Comp>
__global__ void eytzinger_search_kernel(NeedleIt needles, index_t needle_count, TreeIt tree, index_t count,
                                        index_t cached, OutIt out, Comp comp) {
  using Key = value_of<TreeIt>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* top = reinterpret_cast<Key*>(shared_bytes);
  for (index_t k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const eytzinger_shape shape(count);
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < needle_count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const auto x = needles[i];
    index_t k = 1;
    while (k <= cached) k = 2 * k + (detail::goes_past<Bounds>(top[k - 1], x, comp) ? 1 : 0);
    while (k <= count) k = 2 * k + (detail::goes_past<Bounds>(tree[k - 1], x, comp) ? 1 : 0);
    k >>= detail::trailing_zeros(static_cast<std::uint64_t>(~k)) + 1;
    out[i] = static_cast<out_value<OutIt>>(k == 0 ? count : shape.sorted_index(k));
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
