// One tile of the load-balancing path in shared memory: the first item of each of its segments
// marked in a bitmap, from which each item finds its segment (kernel/load_balance.cuh).
#pragma once

#include "../detail/config.hpp"
#include "../thread/load_balance.hpp"

namespace mergepath {
namespace block {

// The heads of a tile's segments (their first items): bit p of the bitmap is set when a segment
// with items starts at the tile's item p, and then mark[p] says which (the rest of mark is never
// written or read). A bitmap is 1/32 of the tile to clear, and a warp reading it in item order
// reads one word: the kernels were bound by per-item shared-memory instructions (ncu, H200).
template <int TileItems>
struct segment_heads {
  static constexpr int words = (TileItems + 31) / 32;
  unsigned bits[words];
  int mark[TileItems];

  // Before mark(): no heads.
  template <int BlockThreads>
  __device__ void clear() {
    for (int w = threadIdx.x; w < words; w += BlockThreads) bits[w] = 0;
  }

  // The heads at positions [first, first + 32), bit j for position first + j (0 past the tile).
  __device__ unsigned bits_from(int first) const {
    const int w = first >> 5, shift = first & 31;
    const unsigned low = bits[w] >> shift;
    return shift == 0 || w + 1 >= words ? low : low | bits[w + 1] << (32 - shift);
  }

  // The last head at or before position p within p's word, or -1.
  __device__ int last_in_word_through(int p) const {
    const unsigned through = bits[p >> 5] & (0xffffffffu >> (31 - (p & 31)));
    return through == 0 ? -1 : (p & ~31) + 31 - __clz(static_cast<int>(through));
  }
};

// Marks the heads of the tile's segments: mark_of(m, p) at the tile's item p, m >= 1, when
// segment share.start_begin - 1 + m (the tile's m-th start) starts there and has items; calls
// on_empty(s) for each segment s that starts and ends inside the tile with no item. heads must be
// clear beforehand. Offsets are clamped into [0, num_items], so malformed starts mark (or call
// on_empty for) a segment of the tile, never a place outside it. Ends with a barrier.
template <int BlockThreads, int TileItems, class StartsIt, class MarkOf, class OnEmpty>
__device__ void mark_segment_heads(StartsIt starts, const load_balance_share& share, segment_heads<TileItems>& heads,
                                   MarkOf mark_of, OnEmpty on_empty) {
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
    if (offset < next) {
      atomicExch(heads.mark + offset, mark_of(k + 1, offset));  // atomic: malformed starts may mark one item twice
      atomicOr(heads.bits + (offset >> 5), 1u << (offset & 31));
    } else if (!last) {
      on_empty(s);
    }
  }
  __syncthreads();
}

}  // namespace block
}  // namespace mergepath
