// One tile of the load-balancing path in shared memory, two ways: tile_segment_map counts the
// tile's starts at each item and scans the counts a warp at a time, which gives every item its
// segment (load_balancing_search, interval_expand); head_bitmap marks the first item of each
// segment with items, and segment_heads beside it which segment starts there (transform_lbs;
// segmented_reduce keeps each start's offset instead). kernel/load_balance.cuh uses both.
#pragma once

#include <cstdint>

#include "../detail/config.hpp"
#include "../thread/load_balance.hpp"

namespace mergepath {
namespace block {

// One lane's chunk of a tile_segment_map, as for_each_chunk() hands it over: its positions
// [p0, p0 + 8) and each one's mark.
struct map_chunk {
  static constexpr int size = 8;
  int p0;
  int marks[size];
};

// A tile's items in chunks of `vector` consecutive items, aligned to the global item order (so a
// chunk of a plain array is one or two vector stores). Position p of the map is the tile's item
// p - shift, where shift = item_begin % vector. count_starts() puts at each position the number
// of the tile's starts there; for_each_chunk() then scans the counts, each warp over its own
// region of positions, and hands every lane, chunk by chunk, each item's mark: the tile's starts
// at or before it, so its segment is the tile's first segment + mark. The counts are 16-bit (a
// tile has fewer than 2^16 starts), so a lane reads its chunk's eight in one 16-byte load, and a
// warp scans 256 items with one five-step shuffle scan.
template <int BlockThreads, int TileItems>
struct tile_segment_map {
  static constexpr int vector = map_chunk::size;
  static constexpr int warps = BlockThreads / 32;
  static constexpr int rounds = ((TileItems + vector - 1 + vector - 1) / vector + BlockThreads - 1) / BlockThreads;
  static constexpr int region_positions = rounds * 32 * vector;  // a warp's positions
  static constexpr int positions = region_positions * warps;
  static_assert(BlockThreads % 32 == 0, "tile_segment_map: whole warps");
  static_assert(TileItems < (1 << 16), "tile_segment_map: a tile's starts, so any sum of its counts, fit 16 bits");

  alignas(16) unsigned counts[positions / 2];  // two 16-bit counts a word, the lower first
  int region_starts[warps];                    // starts counted in each warp's region

  __device__ void clear() {
    for (int c = threadIdx.x; c < positions / vector; c += BlockThreads)
      reinterpret_cast<uint4*>(counts)[c] = make_uint4(0, 0, 0, 0);
    if (threadIdx.x < warps) region_starts[threadIdx.x] = 0;
  }

  // Counts the starts of `share` at their positions (a start at the tile's end, or past it, has no
  // item here and is not counted; offsets are clamped, so malformed starts count at a position of
  // the tile, never outside it). clear() and a barrier before; ends with a barrier.
  template <class StartsIt>
  __device__ void count_starts(StartsIt starts, const load_balance_share& share, int shift) {
    const int num_starts = static_cast<int>(share.start_end - share.start_begin);
    const index_t num_items = share.item_end - share.item_begin;
    const int lane = static_cast<int>(threadIdx.x) % 32;
    // Whole warps go round the loop together: the region totals are counted a warp at a time.
    for (int k0 = static_cast<int>(threadIdx.x) - lane; k0 < num_starts; k0 += BlockThreads) {
      const int k = k0 + lane;
      int position = -1;
      if (k < num_starts) {
        const index_t offset = static_cast<index_t>(starts[share.start_begin + k]) - share.item_begin;
        if (offset < num_items) position = static_cast<int>(detail::max_of<index_t>(offset, 0)) + shift;
      }
      // Atomic: empty segments share a position. No carry reaches the neighbour: fewer than 2^16.
      if (position >= 0) atomicAdd(counts + position / 2, 1u << (position % 2 * 16));
      // The lanes' starts fall in runs of one region each (one run per region when sorted): the
      // last lane of each run adds the run's length to the region's total.
      const int region = position >= 0 ? position / region_positions : -1;
      const int region_before = __shfl_up_sync(0xffffffffu, region, 1);
      const int region_after = __shfl_down_sync(0xffffffffu, region, 1);
      const unsigned run_firsts = __ballot_sync(0xffffffffu, lane == 0 || region_before != region);
      if (region >= 0 && (lane == 31 || region_after != region)) {
        const int run_first = 31 - __clz(static_cast<int>(run_firsts & (0xffffffffu >> (31 - lane))));
        atomicAdd(region_starts + region, lane - run_first + 1);
      }
    }
    __syncthreads();
  }

  // on_chunk(chunk) for each chunk whose positions [p0, p0 + vector) reach below `end` (shift +
  // the tile's items), a chunk per lane and round, in order within each warp's region. After
  // count_starts().
  template <class OnChunk>
  __device__ void for_each_chunk(int end, OnChunk on_chunk) const {
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    int base = 0;  // the starts before this round
    for (int r = 0; r < warp; ++r) base += region_starts[r];
    const int region_begin = warp * region_positions;
    MERGEPATH_UNROLL
    for (int round = 0; round < rounds; ++round) {
      const int round_begin = region_begin + round * 32 * vector;
      if (round_begin >= end) break;  // warp-uniform
      map_chunk chunk;
      chunk.p0 = round_begin + lane * vector;
      const uint4 c = reinterpret_cast<const uint4*>(counts)[chunk.p0 / vector];
      const unsigned pairs = c.x + c.y + c.z + c.w;  // both halves at once: no carry (static_assert)
      const int chunk_starts = static_cast<int>((pairs & 0xffffu) + (pairs >> 16));
      int starts_through = chunk_starts;
      MERGEPATH_UNROLL
      for (int d = 1; d < 32; d *= 2) {  // inclusive scan over the warp's chunks
        const int s = __shfl_up_sync(0xffffffffu, starts_through, d);
        if (lane >= d) starts_through += s;
      }
      int mark = base + starts_through - chunk_starts;  // the starts before the chunk
      const unsigned words[4] = {c.x, c.y, c.z, c.w};
      MERGEPATH_UNROLL
      for (int w = 0; w < 4; ++w) {
        mark += static_cast<int>(words[w] & 0xffffu);
        chunk.marks[2 * w] = mark;
        mark += static_cast<int>(words[w] >> 16);
        chunk.marks[2 * w + 1] = mark;
      }
      on_chunk(chunk);
      base += __shfl_sync(0xffffffffu, starts_through, 31);
    }
  }
};

// The heads of a tile's segments (their first items): bit p is set when a segment with items
// starts at the tile's item p. A bitmap is 1/32 of the tile to clear, and a warp reading it in
// item order reads one word: the kernels were bound by per-item shared-memory instructions.
template <int TileItems>
struct head_bitmap {
  static constexpr int words = (TileItems + 31) / 32;
  unsigned bits[words];

  // Before set(): no heads.
  template <int BlockThreads>
  __device__ void clear() {
    for (int w = threadIdx.x; w < words; w += BlockThreads) bits[w] = 0;
  }

  __device__ void set(int p) { atomicOr(bits + (p >> 5), 1u << (p & 31)); }

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

// A head bitmap that also says which segment starts at each head: mark[p] = m for the tile's m-th
// start (the rest of mark is never written or read).
template <int TileItems>
struct segment_heads : head_bitmap<TileItems> {
  int mark[TileItems];
};

// offsets[k] = the tile's item where its start k (share.start_begin + k) falls, clamped into
// [0, num_items] (a tile has fewer than 2^16 items): malformed starts give offsets of the tile,
// never places outside it. Each thread loads `batch` starts before it uses any: one wait for
// global memory per batch, not per start (the kernels stalled on these loads one start at a
// time). Ends with a barrier.
template <int BlockThreads, class StartsIt>
__device__ void load_start_offsets(StartsIt starts, const load_balance_share& share, std::uint16_t* offsets) {
  constexpr int batch = 4;
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const index_t num_items = share.item_end - share.item_begin;
  for (int k0 = 0; k0 < num_starts; k0 += BlockThreads * batch) {
    int loaded[batch];
    MERGEPATH_UNROLL
    for (int b = 0; b < batch; ++b) {
      const int k = k0 + b * BlockThreads + static_cast<int>(threadIdx.x);
      if (k < num_starts) {
        const index_t offset = static_cast<index_t>(starts[share.start_begin + k]) - share.item_begin;
        loaded[b] = static_cast<int>(detail::min_of(detail::max_of<index_t>(offset, 0), num_items));
      }
    }
    MERGEPATH_UNROLL
    for (int b = 0; b < batch; ++b) {
      const int k = k0 + b * BlockThreads + static_cast<int>(threadIdx.x);
      if (k < num_starts) offsets[k] = static_cast<std::uint16_t>(loaded[b]);
    }
  }
  __syncthreads();
}

// on_start(k, offset, next) for each of the tile's starts k, from their offsets
// (load_start_offsets): next is the following start's offset, the tile's end for the last start,
// and the start's segment has items here when offset < next. Ends with a barrier.
template <int BlockThreads, class OnStart>
__device__ void for_each_start_offset(const std::uint16_t* offsets, const load_balance_share& share, OnStart on_start) {
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  for (int k = threadIdx.x; k < num_starts; k += BlockThreads)
    on_start(k, offsets[k], k + 1 < num_starts ? offsets[k + 1] : num_items);
  __syncthreads();
}

// Marks the heads of the tile's segments and which start each is (segment_heads, mark m >= 1 for
// segment share.start_begin - 1 + m), through the starts' offsets. heads must be clear
// beforehand. Ends with a barrier.
template <int BlockThreads, int TileItems, class StartsIt>
__device__ void mark_segment_heads(StartsIt starts, const load_balance_share& share, segment_heads<TileItems>& heads,
                                   std::uint16_t* offsets) {
  load_start_offsets<BlockThreads>(starts, share, offsets);
  for_each_start_offset<BlockThreads>(offsets, share, [&](int k, int offset, int next) {
    if (offset >= next) return;
    atomicExch(heads.mark + offset, k + 1);  // atomic: malformed starts may mark one item twice
    heads.set(offset);
  });
}

}  // namespace block
}  // namespace mergepath
