// One tile of the load-balancing path in shared memory: its segment starts, and the segment of
// each of its items, found by each thread walking its share of the tile serially.
#pragma once

#include "../detail/config.hpp"
#include "../thread/load_balance.hpp"
#include "../thread/merge_path.hpp"

namespace mergepath {
namespace block {

// A tile's starts in shared memory, as offsets from the tile's first item (32-bit whatever the
// starts' type): start_offset[k] is that of segment share.start_begin - 1 + k, k >= 1;
// start_offset[0] stands for the segment open when the tile begins, whose start (before the
// tile) is kept whole in head_start.
template <int TileItems>
struct load_balance_tile_starts {
  int start_offset[TileItems + 1];
  index_t head_start;
};

// Fills `tile` with the starts of `share` (a tile's share of the path, at most TileItems steps).
// Offsets are clamped into [-1, TileItems + 1], which keeps every comparison with the tile's items
// as it was: well-formed starts of a tile lie inside it and need no clamp. Ends with a barrier.
template <int BlockThreads, int TileItems, class StartsIt>
__device__ void load_tile_starts(StartsIt starts, const load_balance_share& share,
                                 load_balance_tile_starts<TileItems>& tile) {
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  for (int k = threadIdx.x; k <= num_starts; k += BlockThreads) {
    const index_t s = share.start_begin - 1 + k;
    const index_t start = s >= 0 ? static_cast<index_t>(starts[s]) : 0;
    if (k == 0) tile.head_start = start;
    const index_t offset = start - share.item_begin;
    tile.start_offset[k] = static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(offset, -1), TileItems + 1));
  }
  __syncthreads();
}

// Each thread's share of a tile: Merge Path over the tile's starts (in shared memory) and its
// items, at the thread's first step. Returns {starts taken, items taken} before that step.
template <int ItemsPerThread, int TileItems>
__device__ int2 thread_split_in_tile(const load_balance_tile_starts<TileItems>& tile, int num_starts, int num_items) {
  const int diag = detail::min_of(static_cast<int>(threadIdx.x) * ItemsPerThread, num_starts + num_items);
  const int s = merge_path(tile.start_offset + 1, num_starts, counting_sequence{0}, num_items, diag,
                           item_before_start{});
  return {s, diag - s};
}

// Walks the thread's ItemsPerThread steps from `split` (thread_split_in_tile): at each step either
// the next start (on_start(k): the tile's segment k - 1 ends, k counted as start_offset counts)
// or the next item (on_item(i, k): item i of the tile lies in the tile's segment k). Returns the
// split after the walk.
template <int ItemsPerThread, int TileItems, class OnStart, class OnItem>
__device__ int2 walk_tile(const load_balance_tile_starts<TileItems>& tile, int num_starts, int num_items, int2 split,
                          OnStart on_start, OnItem on_item) {
  int s = split.x, i = split.y;
  MERGEPATH_UNROLL
  for (int step = 0; step < ItemsPerThread; ++step) {
    if (s < num_starts && (i >= num_items || tile.start_offset[s + 1] <= i)) {
      ++s;
      on_start(s);
    } else if (i < num_items) {
      on_item(i, s);
      ++i;
    }
  }
  return {s, i};
}

// segment_of_item[i] = the tile's segment (as start_offset counts it) of each item i of the tile.
// Ends with a barrier. With malformed starts, threads' shares may overlap or leave gaps: readers
// clamp what they read.
template <int ItemsPerThread, int TileItems>
__device__ void find_item_segments(const load_balance_tile_starts<TileItems>& tile, int num_starts, int num_items,
                                   int* segment_of_item) {
  walk_tile<ItemsPerThread>(tile, num_starts, num_items,
                            thread_split_in_tile<ItemsPerThread>(tile, num_starts, num_items), [](int) {},
                            [&](int i, int k) { segment_of_item[i] = k; });
  __syncthreads();
}

}  // namespace block
}  // namespace mergepath
