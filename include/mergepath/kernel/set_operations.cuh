// The GPU set-operation kernels: a partition kernel (a set_path point per tile), and a tile
// kernel run twice, first counting each tile's output, then (at the tiles' scanned offsets)
// writing it: keys in shared memory, a set_path point per thread, each thread's walk.
#pragma once

#include <cstddef>
#include <cub/block/block_scan.cuh>
#include <type_traits>

#include "../detail/config.hpp"
#include "../thread/set_operations.hpp"
#include "../tuning/set_operations.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

// splits[p] = the walk's point at p * tile_items steps, a split per thread.
template <class AIt, class BIt, class Comp>
__global__ void set_partition_kernel(AIt a, index_t a_count, BIt b, index_t b_count, index_t tile_items,
                                     index_t num_splits, set_split<index_t>* splits, Comp comp) {
  const index_t p = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (p < num_splits)
    splits[p] = set_path(a, a_count, b, b_count, detail::min_of(p * tile_items, a_count + b_count), comp);
}

// One tile per block. Write = false: tile_counts[tile] = the tile's output count (and
// tile_counts[num_tiles] = 0, for the scan). Write = true: tile_counts holds the tiles' output
// offsets; the tile's output goes there, compacted, through shared memory (coalesced stores).
// For any data nothing outside a, b, shared memory and out[0, capacity) is touched.
template <class Policy, set_op Op, bool Write, class AKeys, class AVals, class BKeys, class BVals, class OutKeys,
          class OutVals, class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    set_operation_tile_kernel(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, const set_split<index_t>* splits,
                              index_t num_tiles, index_t* tile_counts, index_t capacity, OutKeys out_keys,
                              OutVals out_vals, Comp comp) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int room = Policy::tuning.tile_items() + 1;  // a point may lie one step before its diagonal
  using Key = value_of<AKeys>;
  using scan = cub::BlockScan<int, threads>;
  __shared__ __align__(16) unsigned char key_bytes[sizeof(Key) * room];
  __shared__ int sources[Write ? room : 1];  // output k: a's element s >= 0, or b's ~s
  __shared__ set_split<int> points[threads + 1];
  __shared__ typename scan::TempStorage scan_storage;

  const index_t tile = blockIdx.x;
  const set_split<index_t> s0 = splits[tile], s1 = splits[tile + 1];
  const int a_count = static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.a - s0.a, 0), room));
  const int b_count =
      static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.b - s0.b, 0), room - a_count));
  Key* keys = reinterpret_cast<Key*>(key_bytes);
  for (int k = threadIdx.x; k < a_count + b_count; k += threads)
    keys[k] = k < a_count ? static_cast<Key>(a_keys[s0.a + k]) : static_cast<Key>(b_keys[s0.b + (k - a_count)]);
  __syncthreads();

  const Key* a = keys;
  const Key* b = keys + a_count;
  points[threadIdx.x] =
      set_path(a, a_count, b, b_count, detail::min_of(static_cast<int>(threadIdx.x) * items, a_count + b_count), comp);
  if (threadIdx.x == 0) points[threads] = {a_count, b_count};
  __syncthreads();
  const set_split<int> p0 = points[threadIdx.x], p1 = points[threadIdx.x + 1];
  const int a_end = detail::max_of(p0.a, p1.a), b_end = detail::max_of(p0.b, p1.b);
  const int count = serial_set_operation<Op>(a, p0.a, a_end, b, p0.b, b_end, comp, [](bool, int) {});
  int offset = 0, tile_count = 0;
  scan(scan_storage).ExclusiveSum(count, offset, tile_count);
  tile_count = detail::min_of(tile_count, room);  // more only on unsorted input (overlapping walks)
  if constexpr (!Write) {
    if (threadIdx.x == 0) {
      tile_counts[tile] = tile_count;
      if (tile == 0) tile_counts[num_tiles] = 0;
    }
  } else {
    serial_set_operation<Op>(a, p0.a, a_end, b, p0.b, b_end, comp, [&](bool from_b, int x) {
      if (offset < room) sources[offset] = from_b ? ~x : x;
      ++offset;
    });
    __syncthreads();
    const index_t out_begin = tile_counts[tile];
    for (int k = threadIdx.x; k < tile_count; k += threads) {
      const index_t at = out_begin + k;
      if (at >= capacity) break;
      const int s = sources[k];
      out_keys[at] = s >= 0 ? a[s] : b[~s];
      if constexpr (!std::is_same_v<OutVals, std::nullptr_t>)
        out_vals[at] = s >= 0 ? a_vals[s0.a + s] : b_vals[s0.b + ~s];
    }
  }
}

}  // namespace kernel
}  // namespace mergepath
