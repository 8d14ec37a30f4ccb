// The GPU load-balancing kernels. The path through (segment starts, items) is split into tiles by
// the merge partition kernel (kernel/merge.cuh, starts against the counting sequence); then one
// tile per block: transform_lbs_kernel calls f for each item, segmented_reduce_kernel reduces the
// items of each segment and leaves the segments that cross tiles to segmented_reduce_fixup_kernel.
#pragma once

#include <cub/block/block_scan.cuh>

#include "../block/load_balance.cuh"
#include "../detail/config.hpp"
#include "../error.hpp"
#include "../thread/load_balance.hpp"

namespace mergepath {
namespace kernel {

// The share of the path of tile `tile` (splits from the partition pass).
__device__ inline load_balance_share tile_share(const index_t* splits, index_t tile, int tile_items, index_t total) {
  const index_t diag0 = tile * tile_items;
  const index_t diag1 = detail::min_of(diag0 + tile_items, total);
  return load_balance_share_between(splits[tile], splits[tile + 1], diag0, diag1);
}

// Calls f(index, segment, rank) for every item of the block's tile. The items are visited in
// order across the block's threads (thread t takes the tile's items t, t + threads, ...), so f's
// accesses at index, and at a segment's base + rank, coalesce.
template <class Policy, class Func, class StartsIt>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    transform_lbs_kernel(Func f, index_t count, StartsIt starts, index_t num_segments, const index_t* splits) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int tile_items = Policy::tuning.tile_items();
  __shared__ block::load_balance_tile_starts<tile_items> tile;
  __shared__ int segment_of_item[tile_items];

  detail::wait_for_prior_grid();  // the splits
  const load_balance_share share = tile_share(splits, blockIdx.x, tile_items, count + num_segments);
  detail::allow_dependent_launch();
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  block::load_tile_starts<threads>(starts, share, tile);
  block::find_item_segments<items>(tile, num_starts, num_items, segment_of_item);

  for (int i = threadIdx.x; i < num_items; i += threads) {
    // The unsigned min clamps a malformed (or unwritten) entry into [0, num_starts].
    const int k = static_cast<int>(min(static_cast<unsigned>(segment_of_item[i]), static_cast<unsigned>(num_starts)));
    const index_t index = share.item_begin + i;
    const index_t segment_start = k == 0 ? tile.head_start : share.item_begin + tile.start_offset[k];
    f(index, clamp_segment(share.start_begin - 1 + k, num_segments), rank_in_segment(index, segment_start));
  }
}

// What a tile of segmented_reduce leaves for the fix-up: the segment open when the tile begins
// (`head_segment`, ended inside the tile when head_closed) with the tile's items of it, and the
// segment open when the tile ends with its items here (`tail`, scanned across tiles).
template <class T>
struct tile_head {
  index_t segment;
  bool closed;
  partial_reduction<T> partial;
};

// out[s] for the segments that start and end inside the block's tile; the tile's head and tail
// partials for the rest. Each thread walks its share of the path reducing items into `acc`;
// a segment that starts and ends in one thread's share is finished at once; the partials that
// cross threads are joined by a block-wide reduce-by-key scan.
template <class Policy, class ValueAt, class StartsIt, class OutIt, class T, class Op>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    segmented_reduce_kernel(ValueAt value_at, index_t count, StartsIt starts, index_t num_segments,
                            const index_t* splits, OutIt out, T init, Op op, tile_head<T>* heads,
                            segment_partial<T>* tails) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int tile_items = Policy::tuning.tile_items();
  using block_scan = cub::BlockScan<segment_partial<T>, threads>;
  __shared__ block::load_balance_tile_starts<tile_items> tile;
  // Raw bytes: T need not be default-constructible in shared memory.
  __shared__ alignas(alignof(T)) unsigned char value_bytes[sizeof(T) * tile_items];
  __shared__ alignas(alignof(T)) unsigned char result_bytes[sizeof(T) * tile_items];
  __shared__ typename block_scan::TempStorage scan_storage;
  static_assert(sizeof(value_bytes) + sizeof(result_bytes) + sizeof(tile) <= 40 * 1024,
                "segmented_reduce: the value type is too large for the GPU tile (at most ~150 bytes)");
  T* values = reinterpret_cast<T*>(value_bytes);
  T* results = reinterpret_cast<T*>(result_bytes);  // results[k - 1]: the tile's segment k, k >= 1

  detail::wait_for_prior_grid();  // the splits
  const load_balance_share share = tile_share(splits, blockIdx.x, tile_items, count + num_segments);
  detail::allow_dependent_launch();
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  // The head's record until (after the scan's barriers) the thread that ends the head segment, if
  // any, overwrites it.
  if (threadIdx.x == 0) heads[blockIdx.x] = {share.start_begin - 1, false, {}};
  for (int i = threadIdx.x; i < num_items; i += threads) values[i] = static_cast<T>(value_at(share.item_begin + i));
  block::load_tile_starts<threads>(starts, share, tile);  // its barrier also publishes values

  const combine_segment_partials<T, Op> combine{op};
  const int2 split = block::thread_split_in_tile<items>(tile, num_starts, num_items);
  partial_reduction<T> acc, head;
  bool head_closed = false;
  const int2 end = block::walk_tile<items>(
      tile, num_starts, num_items, split,
      [&](int k) {  // the tile's segment k - 1 ends
        if (!head_closed)
          head = acc, head_closed = true;
        else
          results[k - 2] = acc.finish(init, op);
        acc = {};
      },
      [&](int i, int) { acc.add(values[i], op); });

  // before: the partial of the segment open at this thread's start from the threads before it.
  segment_partial<T> before, tile_total;
  block_scan(scan_storage).ExclusiveScan(segment_partial<T>{end.x, acc}, before, combine, tile_total);
  if (threadIdx.x == 0) before = {-1, {}};
  if (head_closed) {
    const partial_reduction<T> first = combine(before, {split.x, head}).partial;
    if (split.x == 0)  // the segment that began before the tile
      heads[blockIdx.x] = {share.start_begin - 1, true, first};
    else if (split.x <= num_starts)
      results[split.x - 1] = first.finish(init, op);
  }
  if (threadIdx.x == threads - 1) tails[blockIdx.x] = {share.start_end - 1, tile_total.partial};
  __syncthreads();
  // Segments start_begin .. start_end - 2 began and ended here.
  for (int k = threadIdx.x; k < num_starts - 1; k += threads) out[share.start_begin + k] = results[k];
}

// After the tails are scanned (scanned[t]: the partial, over tiles 0..t, of the segment open at
// the end of tile t): finishes each segment that ended in the tile after the one it was open in,
// and the last segment.
template <class T, class OutIt, class Op>
__global__ void segmented_reduce_fixup_kernel(const tile_head<T>* heads, const segment_partial<T>* scanned,
                                              index_t num_tiles, index_t num_segments, OutIt out, T init, Op op) {
  const index_t t = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (t >= num_tiles) return;
  const combine_segment_partials<T, Op> combine{op};
  const tile_head<T> head = heads[t];
  // Segment -1 holds the items before a malformed first start: no output.
  if (head.closed && head.segment >= 0 && head.segment < num_segments) {
    segment_partial<T> carried = t > 0 ? scanned[t - 1] : segment_partial<T>{-1, {}};
    out[head.segment] = combine(carried, {head.segment, head.partial}).partial.finish(init, op);
  }
  const segment_partial<T> last = scanned[t];
  if (t == num_tiles - 1 && last.segment >= 0 && last.segment < num_segments)
    out[last.segment] = last.partial.finish(init, op);
}

// *first = the least s with segment_start_is_bad(starts, s, count); untouched when none is.
template <class StartsIt>
__global__ void first_bad_start_kernel(StartsIt starts, index_t num_segments, index_t count,
                                       unsigned long long* first) {
  for (index_t s = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; s < num_segments;
       s += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (segment_start_is_bad(starts, s, count)) {
      atomicMin(first, static_cast<unsigned long long>(s));
      return;  // later positions of this thread are larger
    }
}

// values[0, 1] = starts[s], starts[s - 1] (checked mode's message).
template <class StartsIt>
__global__ void fetch_starts_kernel(StartsIt starts, index_t s, long long* values) {
  values[0] = static_cast<long long>(starts[s]);
  values[1] = s > 0 ? static_cast<long long>(starts[s - 1]) : 0;
}

}  // namespace kernel
}  // namespace mergepath
