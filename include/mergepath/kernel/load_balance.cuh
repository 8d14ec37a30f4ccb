// The GPU load-balancing kernels. The path through (segment starts, items) is split into tiles by
// the merge partition kernel (kernel/merge.cuh, starts against the counting sequence); then one
// tile per block: transform_lbs_kernel calls f for each item, store_lbs_values_kernel stores a value
// for each (load_balancing_search, interval_expand). The reductions over the same tiles are in
// kernel/segmented_reduce.cuh.
#pragma once

#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <cub/util_ptx.cuh>
#include <iterator>
#include <type_traits>

#include "../block/load_balance.cuh"
#include "../block/tile_io.cuh"
#include "../block/warp_merge_path.cuh"
#include "../block/warp_reduce.cuh"
#include "../detail/config.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../thread/load_balance.hpp"
#include "../tuning/arch.hpp"

namespace mergepath {
namespace kernel {

// The share of the path of tile `tile` (splits from the partition pass).
__device__ inline load_balance_share tile_share(const index_t* splits, index_t tile, int tile_items, index_t total) {
  const index_t diag0 = tile * tile_items;
  const index_t diag1 = detail::min_of(diag0 + tile_items, total);
  return load_balance_share_between(splits[tile], splits[tile + 1], diag0, diag1);
}

// A chunk of N consecutive values, moved with vector loads and stores where aligned.
template <class T, int N>
struct alignas(sizeof(T) * N < 16 ? sizeof(T) * N : 16) value_chunk {
  T v[N];
};
// *to = chunk, in 16-byte stores where the chunk is a whole number of them. (A plain assignment
// of a 32-byte chunk became four 4-byte stores and one 16-byte store; so did uint4 copies.)
__device__ __forceinline__ void store_piece(uint4* to, const uint4& piece) {
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(to), "r"(piece.x), "r"(piece.y), "r"(piece.z),
               "r"(piece.w)
               : "memory");
}
template <class T, int N>
__device__ __forceinline__ void store_chunk(T* to, const value_chunk<T, N>& chunk) {
  if constexpr (sizeof(chunk) % 16 == 0) {
    MERGEPATH_UNROLL
    for (int k = 0; k < static_cast<int>(sizeof(chunk) / 16); ++k) {
      uint4 piece;
      memcpy(&piece, reinterpret_cast<const unsigned char*>(&chunk) + 16 * k, 16);
      store_piece(reinterpret_cast<uint4*>(to) + k, piece);
    }
  } else {
    *reinterpret_cast<value_chunk<T, N>*>(to) = chunk;
  }
}
template <class T>
struct can_move_chunks
    : std::bool_constant<std::is_trivially_copyable_v<T> &&
                         (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)> {};

// Where the caller only makes a value per item: out[index] = value_of(index, segment), run
// by store_lbs_values_kernel instead of transform_lbs_kernel's call of f per item.
template <class OutIt, class ValueOf>
struct store_item_values {
  OutIt out;
  ValueOf value_of;
};
template <class Emit>
struct stores_item_values : std::false_type {};
template <class OutIt, class ValueOf>
struct stores_item_values<store_item_values<OutIt, ValueOf>> : std::true_type {};

// Position p of a tile's segment map: its item's index, and the segment of a mark.
struct lbs_tile_frame {
  index_t position_zero;        // the index of position 0 (item_begin - shift)
  index_t segment_before_tile;  // the segment of mark 0: open when the tile begins
  int min_mark;                 // 1 on the first tile: no item before the first start has segment -1

  __device__ index_t index(int p) const { return position_zero + p; }
  __device__ index_t segment(int mark) const { return segment_before_tile + max(mark, min_mark); }
};

// Whether store_item_values can store whole chunks (value_chunk): out a plain array of a 1, 2, 4
// or 8-byte type, aligned to the chunk (checked per launch).
template <class OutIt>
struct can_store_chunks : std::false_type {};
template <class T>
struct can_store_chunks<T*> : std::bool_constant<!std::is_const_v<T> && can_move_chunks<T>::value> {};

// Calls f(index, segment, rank) for every item of the block's tile. The tile's starts mark the
// first item of each segment with items (block::segment_heads); a max-scan over the bitmap's
// words then gives each word the last head before it, so an item finds its segment from its own
// word, or from that scan when the word holds no head before it. f is called across the block's
// threads in item order (thread t takes the tile's items t, t + threads, ...), so its accesses at
// index, and at a segment's base + rank, coalesce.
template <class Policy, class Func, class StartsIt>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    transform_lbs_kernel(Func f, index_t count, StartsIt starts, index_t num_segments, const index_t* splits) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int tile_items = Policy::tuning.tile_items();
  using heads_t = block::segment_heads<tile_items>;
  constexpr int words_per_thread = (heads_t::words + threads - 1) / threads;
  constexpr int position_bits = 16;  // a scanned head packs (mark << position_bits) | position
  static_assert(tile_items < (1 << (31 - position_bits)), "transform_lbs: the tile is too long to pack its heads");
  using max_scan = cub::BlockScan<int, threads>;
  __shared__ heads_t heads;
  __shared__ std::uint16_t start_offsets[tile_items];
  __shared__ int last_head_before[heads_t::words];  // packed; 0: none in the tile
  __shared__ typename max_scan::TempStorage scan_storage;

  detail::wait_for_prior_grid();  // the splits
  const load_balance_share share = tile_share(splits, blockIdx.x, tile_items, count + num_segments);
  detail::allow_dependent_launch();
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  heads.template clear<threads>();
  __syncthreads();
  block::mark_segment_heads<threads>(starts, share, heads, start_offsets);

  // The last head of each word, packed; marks grow with position, so the largest is the last.
  int word_last[words_per_thread];
  int last = 0;
  MERGEPATH_UNROLL
  for (int j = 0; j < words_per_thread; ++j) {
    const int w = static_cast<int>(threadIdx.x) * words_per_thread + j;
    word_last[j] = last;
    if (w < heads_t::words && heads.bits[w] != 0) {
      const int p = heads.last_in_word_through(w * 32 + 31);
      last = max(last, heads.mark[p] << position_bits | p);
    }
  }
  int before = 0;
  max_scan(scan_storage).ExclusiveScan(last, before, 0, maximum<int>{});
  MERGEPATH_UNROLL
  for (int j = 0; j < words_per_thread; ++j) {
    const int w = static_cast<int>(threadIdx.x) * words_per_thread + j;
    if (w < heads_t::words) last_head_before[w] = max(word_last[j], before);
  }
  __syncthreads();

  // Mark 0: the item is in the segment open when the tile began.
  const index_t segment_before_tile = share.start_begin - 1;
  const index_t start_before_tile = segment_before_tile >= 0 ? static_cast<index_t>(starts[segment_before_tile]) : 0;
  for (int i = threadIdx.x; i < num_items; i += threads) {
    int head = heads.last_in_word_through(i), mark;
    if (head >= 0) {
      mark = heads.mark[head];
    } else {
      const int packed = last_head_before[i >> 5];
      mark = packed >> position_bits;
      head = packed & ((1 << position_bits) - 1);
    }
    const index_t index = share.item_begin + i;
    const index_t segment_start = mark == 0 ? start_before_tile : share.item_begin + head;
    f(index, clamp_segment(segment_before_tile + mark, num_segments), rank_in_segment(index, segment_start));
  }
}

// The two value_of's of store_item_values: load_balancing_search stores each item's segment,
// interval_expand its segment's value.
struct item_segment {
  __device__ index_t operator()(index_t, index_t segment) const { return segment; }
};
template <class ValuesIt>
struct segment_value {
  ValuesIt values;
  __device__ auto operator()(index_t, index_t segment) const { return values[segment]; }
};

// Whether store_lbs_values_kernel copies a tile's segment values to shared memory beside its
// starts (a plain array of a 4, 8 or 16-byte type): read per item in the store loop, each round's
// loads waited for DRAM before its stores.
template <class ValueOf>
struct stages_segment_values : std::false_type {};
template <class V>
struct stages_segment_values<segment_value<V*>> : std::bool_constant<block::can_copy_async<std::remove_const_t<V>, V*>> {};

// A tile's segment values in shared memory: value(mark) = values[the tile's segment of mark].
// Room for tiles of up to Capacity - 1 starts (a third of the tile, at most ~4 KB: mean segments
// of two items or more for int32); a tile with more reads its values from global memory. A
// larger table cost more than it saved: room for half the tile (8 KB at 128 x 31) left 13 blocks
// an SM (docs/design/load-balance.md#what-was-tried).
template <class V, int Capacity>
struct segment_value_table {
  static constexpr int padding = 16 / sizeof(V);  // the run's shift to 16-byte pieces
  alignas(16) unsigned char bytes[sizeof(V) * (Capacity + padding)];
  __device__ const V* values() const { return reinterpret_cast<const V*>(bytes); }
  __device__ V* values() { return reinterpret_cast<V*>(bytes); }
};
struct no_value_table {};

// A warp's whole round of 8-byte values (256 items, 2 KB) regrouped in shared memory, so that each
// of its four store instructions writes 512 contiguous bytes: stored as each lane's 64-byte chunk,
// every instruction's 32 pieces lay 64 bytes apart, and int64 outputs ran at about half the
// write bandwidth. Lane l's piece k sits at slot 4 l + ((k + l / 2) % 4): eight lanes' 16-byte
// accesses, written or read back, fall in distinct banks.
template <int Warps>
struct round_regrouping {
  uint4 pieces[Warps][128];
  __device__ static int slot(int lane, int k) { return 4 * lane + ((k + lane / 2) & 3); }
  // The block's one, declared only where a kernel regroups (no shared memory for the others).
  __device__ static round_regrouping& of_block() {
    __shared__ round_regrouping regrouping;
    return regrouping;
  }
};

// store_item_values over the block's tile: each item's segment comes from
// block::tile_segment_map, and each lane stores a chunk of consecutive values (vector stores where
// out is an aligned plain array). For a value per item this beats transform_lbs_kernel; for a
// general f that kernel stays faster (docs/design/load-balance.md#what-was-tried).
template <class Policy, class Emit, class StartsIt>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    store_lbs_values_kernel(Emit emit, index_t count, StartsIt starts, index_t num_segments, const index_t* splits,
                            index_t prefetch_distance) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int tile_items = Policy::tuning.tile_items();
  using map_t = block::tile_segment_map<threads, tile_items>;
  constexpr int vector = map_t::vector;
  using ValueOf = decltype(emit.value_of);
  constexpr bool staged = stages_segment_values<ValueOf>::value;
  using value_t = std::remove_cv_t<std::remove_reference_t<decltype(emit.value_of(index_t{}, index_t{}))>>;
  constexpr int table_capacity = detail::min_of<int>(tile_items / 3, 4096 / sizeof(value_t)) + 1;
  using table_t = std::conditional_t<staged, segment_value_table<value_t, table_capacity>, no_value_table>;
  using OutIt = decltype(emit.out);
  using T = typename std::iterator_traits<OutIt>::value_type;
  constexpr bool regroups = can_store_chunks<OutIt>::value && sizeof(T) == 8 && vector == 8;
  using regrouping_t = round_regrouping<threads / 32>;
  __shared__ map_t map;
  __shared__ table_t table;

  detail::wait_for_prior_grid();  // the splits
  const load_balance_share share = tile_share(splits, blockIdx.x, tile_items, count + num_segments);
  detail::allow_dependent_launch();
  // The starts (and segment values) of the tile prefetch_distance ahead, into L2.
  if (prefetch_distance > 0 && blockIdx.x + prefetch_distance < gridDim.x && threadIdx.x % 32 == 0 &&
      threadIdx.x < 64) {
    const load_balance_share ahead =
        tile_share(splits, blockIdx.x + prefetch_distance, tile_items, count + num_segments);
    if (threadIdx.x == 0) block::prefetch_to_l2(starts + ahead.start_begin, ahead.start_end - ahead.start_begin);
    if constexpr (staged) {
      const index_t first = detail::max_of<index_t>(ahead.start_begin - 1, 0);  // the segment before the tile's
      if (threadIdx.x == 32) block::prefetch_to_l2(emit.value_of.values + first, ahead.start_end - first);
    }
  }
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  if (num_items == 0) return;  // a tile of empty segments' starts only
  const int shift = static_cast<int>(share.item_begin % vector);
  const index_t segment_before_tile = share.start_begin - 1;
  const lbs_tile_frame frame{share.item_begin - shift, segment_before_tile, segment_before_tile >= 0 ? 0 : 1};
  const int end = shift + num_items;

  // The table holds marks [min_mark, num_starts] from position `table_offset + mark`.
  [[maybe_unused]] bool use_table = false;
  [[maybe_unused]] int table_offset = 0;
  if constexpr (staged) {
    const int table_count = static_cast<int>(share.start_end - share.start_begin) + 1 - frame.min_mark;
    use_table = table_count >= 1 && table_count <= table_capacity;  // none: malformed starts
    if (use_table) {
      const value_t* first = emit.value_of.values + (segment_before_tile + frame.min_mark);
      const int base = block::address_residue<value_t>(first);
      table_offset = base - frame.min_mark;
      block::copy_run_to_shared<threads, table_capacity>(first, table_count, table.values(), base);
      block::commit_copies();
    }
  }
  map.clear();
  __syncthreads();
  map.count_starts(starts, share, shift);  // the table's copies fly meanwhile
  if constexpr (staged) {
    if (use_table) {
      block::wait_for_copies<0>();
      __syncthreads();
    }
  }

  [[maybe_unused]] bool whole_chunks = false;
  if constexpr (can_store_chunks<OutIt>::value)
    whole_chunks = reinterpret_cast<std::uintptr_t>(emit.out) % alignof(value_chunk<T, vector>) == 0;
  map.for_each_chunk(end, [&](const block::map_chunk& chunk) {
    const int p0 = chunk.p0;
    auto value = [&](int j) {
      if constexpr (staged) {
        if (use_table) return static_cast<T>(table.values()[max(chunk.marks[j], frame.min_mark) + table_offset]);
      }
      return static_cast<T>(emit.value_of(frame.index(p0 + j), frame.segment(chunk.marks[j])));
    };
    if constexpr (can_store_chunks<OutIt>::value) {
      if constexpr (regroups) {
        // Every lane of the warp calls on_chunk each round.
        if (__all_sync(0xffffffffu, whole_chunks && p0 >= shift && p0 + vector <= end)) {
          const int lane = static_cast<int>(threadIdx.x) % 32;
          uint4* pieces = regrouping_t::of_block().pieces[threadIdx.x / 32];
          value_chunk<T, vector> values;
          MERGEPATH_UNROLL
          for (int j = 0; j < vector; ++j) values.v[j] = value(j);
          MERGEPATH_UNROLL
          for (int k = 0; k < 4; ++k)
            memcpy(pieces + regrouping_t::slot(lane, k), reinterpret_cast<const unsigned char*>(&values) + 16 * k, 16);
          __syncwarp();
          T* const round_out = emit.out + frame.index(p0 - vector * lane);  // 16-byte aligned: whole chunks
          MERGEPATH_UNROLL
          for (int k = 0; k < 4; ++k) {
            const int piece = 32 * k + lane;
            store_piece(reinterpret_cast<uint4*>(round_out) + piece, pieces[regrouping_t::slot(piece / 4, piece % 4)]);
          }
          __syncwarp();  // read back before the next round writes
          return;
        }
      }
      // Written out again, not shared with the test above: a shared flag changed the 4-byte path's
      // compiled code and slowed interval_expand.
      if (whole_chunks && p0 >= shift && p0 + vector <= end) {
        value_chunk<T, vector> values;
        MERGEPATH_UNROLL
        for (int j = 0; j < vector; ++j) values.v[j] = value(j);
        store_chunk(emit.out + frame.index(p0), values);
        return;
      }
    }
    MERGEPATH_UNROLL
    for (int j = 0; j < vector; ++j)
      if (p0 + j >= shift && p0 + j < end) emit.out[frame.index(p0 + j)] = value(j);
  });
}

}  // namespace kernel
}  // namespace mergepath
