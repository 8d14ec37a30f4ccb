// One tile of the load-balancing path in shared memory: the first item of each of its segments
// marked, from which each item finds its segment by a scan (kernel/load_balance.cuh).
#pragma once

#include "../detail/config.hpp"
#include "../thread/load_balance.hpp"

namespace mergepath {
namespace block {

// head_mark[p] = m >= 1 when segment share.start_begin - 1 + m (the tile's m-th start) is the
// last to start at the tile's item p and has items, for the whole tile; on_empty(s) for each segment
// s that starts and ends inside the tile with no item. head_mark must hold zeros for the tile's
// items beforehand. Offsets are clamped into [0, num_items], so malformed starts mark (or call
// on_empty for) a segment of the tile, never a place outside it. Ends with a barrier.
template <int BlockThreads, class StartsIt, class OnEmpty>
__device__ void mark_segment_heads(StartsIt starts, const load_balance_share& share, int* head_mark,
                                   OnEmpty on_empty) {
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const index_t num_items = share.item_end - share.item_begin;
  auto offset_of = [&](index_t s) {
    return static_cast<int>(detail::min_of(detail::max_of<index_t>(static_cast<index_t>(starts[s]) - share.item_begin, 0), num_items));
  };
  for (int k = threadIdx.x; k < num_starts; k += BlockThreads) {
    const index_t s = share.start_begin + k;
    const bool last = k + 1 == num_starts;  // its segment runs on past the tile
    const int offset = offset_of(s);
    const int next = last ? static_cast<int>(num_items) : offset_of(s + 1);
    if (offset < next)
      atomicMax(head_mark + offset, k + 1);  // a max: malformed starts may mark one item twice
    else if (!last)
      on_empty(s);
  }
  __syncthreads();
}

}  // namespace block
}  // namespace mergepath
