// Merge rounds across a thread block cluster (sm_90): each block holds one sorted tile in its
// shared memory, and the blocks merge their tiles into one sorted run of the whole cluster,
// reading each other's tiles through distributed shared memory. A sort of a few tiles then
// takes one launch instead of a blocksort and a global merge pass per doubling.
#pragma once

#include <cooperative_groups.h>

#include <type_traits>

#include "../detail/config.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "tile_io.cuh"
#include "warp_merge_path.cuh"

namespace mergepath {
namespace block {

// Blocks in this block's cluster (1 where the GPU has no clusters).
__device__ inline unsigned cluster_block_count() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return cooperative_groups::this_cluster().num_blocks();
#else
  return 1;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
// Position q of a cluster's keys (or values) [begin, ...): slot q % TileItems of block q / TileItems's
// buffer, which every block keeps at the same shared-memory address as `local`.
template <class T, int TileItems>
struct cluster_tiles {
  T* local;
  int begin;

  __device__ T operator[](index_t q) const {
    const int at = begin + static_cast<int>(q);
    return *cooperative_groups::this_cluster().map_shared_rank(local + at % TileItems, at / TileItems);
  }
};
#endif

// Merges the cluster's tiles into one run: block r's keys[0, TileItems) (and values) hold the
// cluster's keys [r * TileItems, ...), sorted, of cluster_count keys in all (the same in every
// block); on return block r holds the same slice of the whole sorted run. Rounds double the runs
// as the blocksort's do: each block finds where its slice of a pair's output splits the pair
// (two warp-wide searches through the other blocks' tiles), copies those keys into `staged`, merges them
// there, and writes them back once the whole cluster has copied. Stable (ties take the earlier
// run). staged (and staged_values) hold TileItems + ItemsPerThread + 1 slots. Every block of the
// cluster must call it; for any data nothing outside the buffers is touched.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void merge_cluster_tiles(Key* keys, Values values, Key* staged, Values staged_values, int cluster_count,
                                    Comp comp) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  static_assert(BlockThreads >= 64, "two warps search for the block's splits");
  constexpr int tile = BlockThreads * ItemsPerThread;
  constexpr int items = ItemsPerThread;
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  const int out_begin = static_cast<int>(cluster.block_rank()) * tile;
  const int out_count = detail::min_of(detail::max_of(cluster_count - out_begin, 0), tile);

  for (int width = tile; width < cluster_count; width *= 2) {
    cluster.sync();  // the runs of the round before are in place in every block
    const int pair = out_begin / (2 * width) * (2 * width);
    const int a_count = detail::min_of(detail::max_of(cluster_count - pair, 0), width);
    const int b_count = detail::min_of(detail::max_of(cluster_count - pair - width, 0), width);
    const int diag0 = detail::min_of(out_begin - pair, a_count + b_count);
    const int diag1 = detail::min_of(diag0 + out_count, a_count + b_count);
    // Two warps search 32 points a step: each step waits on a remote read.
    const tile_splits runs = find_tile_splits<BlockThreads, bounds::lower>(
        cluster_tiles<Key, tile>{keys, pair}, index_t{a_count}, cluster_tiles<Key, tile>{keys, pair + width},
        index_t{b_count}, index_t{diag0}, index_t{diag1}, comp);
    // Clamped so that even an inconsistent comparator stays inside the buffers.
    const int a0 = static_cast<int>(runs.begin), b0 = diag0 - a0;
    const int a_n = static_cast<int>(runs.end) - a0;
    const int b_n = detail::min_of(detail::max_of(diag1 - static_cast<int>(runs.end) - b0, 0), tile - a_n);
    for (int k = threadIdx.x; k < a_n + b_n; k += BlockThreads) {
      const int q = k < a_n ? pair + a0 + k : pair + width + b0 + (k - a_n);
      staged[k] = cluster_tiles<Key, tile>{keys, 0}[q];
      if constexpr (has_values)
        staged_values[k] = cluster_tiles<std::remove_reference_t<decltype(values[0])>, tile>{values, 0}[q];
    }
    __syncthreads();

    const int first = static_cast<int>(threadIdx.x) * items;
    const int diag = detail::min_of(first, a_n + b_n);
    const int split = merge_path(staged, a_n, staged + a_n, b_n, diag, comp);
    Key out[items];
    int source[items];
    serial_merge_n<items>(staged, split, a_n, a_n + diag - split, a_n + b_n, out, source, comp);
    cluster.sync();  // every block has copied what it needs from the tiles it overwrites now
    // Keys alone in 16-byte pieces where they fill them: element-wise, a power of two of keys a
    // thread would crowd a warp's stores into a few banks.
    constexpr bool in_pieces = !has_values && items * sizeof(Key) % 16 == 0;
    if (in_pieces && first + items <= a_n + b_n) {
      store_items_to_shared(out, keys + first);
    } else {
      MERGEPATH_UNROLL
      for (int k = 0; k < items; ++k)
        if (first + k < a_n + b_n) {
          keys[first + k] = out[k];
          if constexpr (has_values) values[first + k] = staged_values[source[k]];
        }
    }
  }
  __syncthreads();
#else
  (void)keys, (void)values, (void)staged, (void)staged_values, (void)cluster_count, (void)comp;
#endif
}

}  // namespace block
}  // namespace mergepath
