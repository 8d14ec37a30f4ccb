// The GPU segmented reductions (segmented_reduce, transform_segmented_reduce). Over the load-
// balancing tiles (kernel/load_balance.cuh): segmented_reduce_kernel reduces the items of each
// segment of its tile and leaves the segments that cross tiles to segmented_reduce_fixup_kernel.
// For long mean segments, segmented_reduce_stream_kernel streams fixed chunks of items instead,
// with no partition pass and no fix-up.
#pragma once

#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/util_ptx.cuh>
#include <cuda/atomic>
#include <cuda/std/limits>
#include <type_traits>

#include "../block/load_balance.cuh"
#include "../block/tile_io.cuh"
#include "../block/warp_merge_path.cuh"
#include "../block/warp_reduce.cuh"
#include "../detail/config.hpp"
#include "../detail/launch.cuh"
#include "../thread/load_balance.hpp"
#include "../tuning/arch.hpp"
#include "load_balance.cuh"

namespace mergepath {
namespace kernel {

// Whether segmented_reduce's value source reads a plain array of T, which a tile can copy to
// shared memory asynchronously.
template <class ValueAt, class T>
struct reads_values_directly : std::false_type {};
template <class V, class T>
struct reads_values_directly<value_at_as<V*, T>, T> : std::is_same<std::remove_const_t<V>, T> {};

// How the fix-up's blocks hand their scans on: block b publishes the scan of its tiles' tails in
// aggregates[b], then sets ready[b] (cleared by segmented_reduce_kernel); each block combines the
// aggregates of all the blocks before it, a warp's lanes polling them side by side.
template <class T>
struct fixup_handover {
  segment_partial<T>* aggregates;
  int* ready;
};

// What a tile of segmented_reduce leaves for the fix-up: the segment open when the tile begins
// (`head_segment`, ended inside the tile when head_closed) with the tile's items of it, and the
// segment open when the tile ends with its items here (`tail`, scanned across tiles).
template <class T>
struct tile_head {
  index_t segment;
  bool closed;
  partial_reduction<T> partial;
};

// The items after the last segment head a thread (or a run of threads) has seen, and that head:
// its position in the tile + 1; 0 where no head was seen, `no_items` where no item either.
template <class T>
struct open_run {
  static constexpr int no_items = -1;
  int head;
  T value;  // the reduction of those items

  __device__ partial_reduction<T> partial() const { return {value, head != no_items}; }
};

// Joins runs in order: a later run that saw a head replaces the earlier; one that did not
// continues the earlier's segment.
template <class T, class Op>
struct join_open_runs {
  Op op;
  __device__ open_run<T> operator()(const open_run<T>& earlier, const open_run<T>& later) const {
    if (later.head > 0 || earlier.head == open_run<T>::no_items) return later;
    if (later.head == open_run<T>::no_items) return earlier;
    return {earlier.head, static_cast<T>(op(earlier.value, later.value))};
  }
};

// An open run and a fold of items that all belong before the scanned ones (a commutative op
// reduces the folds in any order).
template <class T>
struct open_run_with_fold {
  open_run<T> run;
  T fold;
};
template <class T, class Op>
struct join_open_runs_with_folds {
  Op op;
  __device__ open_run_with_fold<T> operator()(const open_run_with_fold<T>& earlier,
                                              const open_run_with_fold<T>& later) const {
    return {join_open_runs<T, Op>{op}(earlier.run, later.run), static_cast<T>(op(earlier.fold, later.fold))};
  }
};

// A thread's walk over its consecutive items first.. of a tile, in order, from registers: `run`
// reduces the items since the last head (or the thread's first item). A head ends the run's
// segment: its reduction goes to `slot`, the place of that segment's first value in `results`
// (consumed by then) when it began here, else the place of the thread's first item (`before`: no
// head there then). Per item: a bit test, a select, the op and a predicated store; no branch: at
// short means some lane of a warp meets a head at almost every item. Returns the run open at the
// thread's end, as the block scan of open runs takes it, and the items before its first head.
template <class T>
struct thread_walk {
  open_run<T> open;
  partial_reduction<T> before;
};
template <int Items, class T, class Op>
__device__ __forceinline__ thread_walk<T> walk_thread_items(const T (&item)[Items], unsigned run_heads, int first,
                                                            int num_items, T* results, Op op) {
  const int mine = detail::max_of(detail::min_of(num_items - first, Items), 0);
  T run = item[0];
  T* slot = results + first;
  auto step = [&](int j) {
    const bool starts_here = run_heads >> j & 1u;
    if (starts_here) *slot = run;
    if (starts_here) slot = results + first + j;
    run = starts_here ? item[j] : static_cast<T>(op(run, item[j]));
  };
  if (first + Items <= num_items) {  // (tested as mine == Items, nvcc 13.0 sent a one-item thread here)
    MERGEPATH_UNROLL
    for (int j = 1; j < Items; ++j) step(j);
  } else {
    MERGEPATH_UNROLL
    for (int j = 1; j < Items; ++j) {
      if (j >= mine) break;
      step(j);
    }
  }
  // The last head's position + 1, 0 where none.
  const int last_head = run_heads == 0 ? 0 : first + 32 - __clz(static_cast<int>(run_heads));
  thread_walk<T> walk;  // (a brace-initialized return with a ?: of partials crashed nvcc 13.0's cicc)
  walk.open = {mine > 0 ? last_head : open_run<T>::no_items, run};
  if (run_heads != 0 && (run_heads & 1u) == 0) walk.before = {results[first], true};
  return walk;
}

// One tile of segmented_reduce. The tile's starts mark the first item of each segment with items
// (a bitmap) and keep their offsets; each thread then reduces `items` consecutive items, and a
// block scan of the runs left open at the threads' ends finishes the segments that cross threads.
// A segment's result goes to shared memory in the place of its first item's value (consumed by
// then), and the tile writes its results in segment order at the end: written where they were
// found, a warp's stores touched several times the sectors of the results.
// What crosses tiles goes to heads and tails for the fix-up: the segment open when the tile
// begins (its items here, and whether it ends here) and the one open when it ends.
template <class Policy, class ValueAt, class StartsIt, class OutIt, class T, class Op>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    segmented_reduce_kernel(ValueAt value_at, index_t count, StartsIt starts, index_t num_segments,
                            const index_t* splits, OutIt out, T init, Op op, tile_head<T>* heads,
                            segment_partial<T>* tails, fixup_handover<T> handover, index_t fixup_blocks) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int tile_items = Policy::tuning.tile_items();
  // Warp scans by shuffles: the raking scan spent a large share of the kernel's instructions.
  using run_scan = cub::BlockScan<open_run<T>, threads, cub::BLOCK_SCAN_WARP_SCANS>;
  // Raw bytes: T need not be default-constructible in shared memory. Room for the shift that lets
  // plain arrays arrive in 16-byte pieces.
  constexpr bool direct = reads_values_directly<ValueAt, T>::value;
  __shared__ alignas(16) unsigned char value_bytes[sizeof(T) * (tile_items + 16 / sizeof(T))];
  __shared__ block::head_bitmap<tile_items> head_bits;
  __shared__ std::uint16_t start_offsets[tile_items];  // the tile's starts' offsets, clamped into the tile
  __shared__ typename run_scan::TempStorage scan_storage;
  static_assert(items < 32, "segmented_reduce: a thread reads its items' heads from one 32-bit window");
  static_assert(tile_items < (1 << 16), "segmented_reduce: a tile's offsets fit 16 bits");
  static_assert(sizeof(value_bytes) <= 40 * 1024,
                "segmented_reduce: the value type is too large for the GPU tile (at most ~300 bytes)");
  T* values = reinterpret_cast<T*>(value_bytes);

  detail::wait_for_prior_grid();                                                  // the splits
  const index_t flag = static_cast<index_t>(blockIdx.x) * threads + threadIdx.x;  // the fix-up's, a thread each
  if (flag < fixup_blocks) handover.ready[flag] = 0;
  const load_balance_share share = tile_share(splits, blockIdx.x, tile_items, count + num_segments);
  detail::allow_dependent_launch();
  const int num_starts = static_cast<int>(share.start_end - share.start_begin);
  const int num_items = static_cast<int>(share.item_end - share.item_begin);
  // values[base + i] = the tile's item i: asynchronous copies where the values are a plain array
  // of T (all of a tile's loads in flight at once), else a loop.
  int base = 0;
  if constexpr (direct) {
    const T* tile_values = value_at.values + share.item_begin;
    base = block::address_residue<T>(tile_values);
    block::copy_run_to_shared<threads, tile_items>(tile_values, num_items, values, base);
    block::commit_copies();
  } else {
    for (int i = threadIdx.x; i < num_items; i += threads) values[i] = static_cast<T>(value_at(share.item_begin + i));
  }
  head_bits.template clear<threads>();
  __syncthreads();
  block::load_start_offsets<threads>(starts, share, start_offsets);
  block::for_each_start_offset<threads>(start_offsets, share, [&](int, int offset, int next) {
    if (offset < next) head_bits.set(offset);
  });
  if constexpr (direct) {  // the copies flew while the starts were read
    block::wait_for_copies<0>();
    __syncthreads();
  }

  // This thread's items, in order, from registers (walk_thread_items).
  T* results = values + base;
  const int first = static_cast<int>(threadIdx.x) * items;
  const int mine = detail::max_of(detail::min_of(num_items - first, items), 0);
  T item[items];  // past the tile's items: slots of the buffer that nothing writes, unused
  MERGEPATH_UNROLL
  for (int j = 0; j < items; ++j) item[j] = results[first + j];
  const unsigned run_heads = head_bits.bits_from(first) & ((1u << mine) - 1u);
  const thread_walk<T> walk = walk_thread_items(item, run_heads, first, num_items, results, op);
  const partial_reduction<T> before = walk.before;

  // carried: the run open at this thread's start, joined over the threads before it.
  open_run<T> carried, tile_run;
  run_scan(scan_storage).ExclusiveScan(walk.open, carried, join_open_runs<T, Op>{op}, tile_run);
  if (threadIdx.x == 0) carried.head = open_run<T>::no_items;
  if (run_heads != 0) {  // this thread ends the segment open at its start
    const partial_reduction<T> whole = carried.partial().then(before, op);
    if (carried.head <= 0)
      heads[blockIdx.x] = {share.start_begin - 1, true, whole};
    else
      results[carried.head - 1] = whole.value;  // valid: it holds its head's item
  }
  if (threadIdx.x == threads - 1) {
    // No head in the tile: its items all belong to the segment open when it began.
    if (tile_run.head <= 0) heads[blockIdx.x] = {share.start_begin - 1, num_starts > 0, tile_run.partial()};
    // The last start's segment runs on past the tile; an earlier one that holds the tile's last
    // items ends with it.
    const bool open_at_end =
        num_starts == 0 || (tile_run.head > 0 && tile_run.head - 1 == start_offsets[num_starts - 1]);
    if (!open_at_end && tile_run.head > 0) results[tile_run.head - 1] = tile_run.value;
    tails[blockIdx.x] = {share.start_end - 1, open_at_end ? tile_run.partial() : partial_reduction<T>{}};
  }
  __syncthreads();

  // Every segment that starts in the tile ends in it but the last start's: init and its items, or
  // init alone when it has none.
  for (int k = threadIdx.x; k < num_starts - 1; k += threads) {
    const int offset = start_offsets[k];
    out[share.start_begin + k] = offset < start_offsets[k + 1] ? static_cast<T>(op(init, results[offset])) : init;
  }
}

// Lane 0 combines the lanes' values in lane order, the earlier on the left (a tree of shuffles);
// `any` says which lanes hold one. Returns, in lane 0, whether any did.
template <class P, class Combine>
__device__ bool warp_combine_in_order(P& mine, bool any, Combine combine) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  MERGEPATH_UNROLL
  for (int d = 1; d < 32; d *= 2) {
    const P later = cub::ShuffleDown<32>(mine, d, 31, 0xffffffffu);
    const bool later_any = __shfl_down_sync(0xffffffffu, any, d) && lane + d < 32;
    if (later_any) mine = any ? combine(mine, later) : later;
    any = any || later_any;
  }
  return any;
}

// Finishes each segment that ended in the tile after the one it was open in, and the last
// segment, in one pass: block b scans the tails of its tiles [b * tiles, (b + 1) * tiles) by
// segment (each thread `Items` consecutive tiles), publishes that scan (fixup_handover), and its
// first warp combines the scans of the blocks before it; a tile's carried partial is then the
// scan through the tile before it. Each tile's head and tail are loaded together, and no block
// waits for more than the others' publications: CUB's look-back (tile status, a prefix published
// after the wait) cost more here at every mean (docs/design/load-balance.md#what-was-tried).
template <int Threads, int Items, class T, class OutIt, class Op>
__global__ void __launch_bounds__(Threads)
    segmented_reduce_fixup_kernel(const tile_head<T>* heads, const segment_partial<T>* tails, index_t num_tiles,
                                  index_t num_segments, OutIt out, T init, Op op, fixup_handover<T> handover) {
  using partial_t = segment_partial<T>;
  using combine_t = combine_segment_partials<T, Op>;
  // Warp scans: a raking scan keeps a partial per thread in shared memory (too much for wide T).
  using scan_t = cub::BlockScan<partial_t, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename scan_t::TempStorage scan_storage;
  __shared__ partial_t last_of_thread[Threads];
  __shared__ partial_t before_block;  // the scan through the tile before the block's first

  detail::wait_for_prior_grid();  // the heads, the tails and the cleared flags
  const combine_t combine{op};
  const index_t first = (static_cast<index_t>(blockIdx.x) * Threads + threadIdx.x) * Items;
  partial_t tile_tails[Items];  // this thread's tiles' tails and heads
  tile_head<T> tile_heads[Items];
  MERGEPATH_UNROLL
  for (int k = 0; k < Items; ++k) {  // past the last tile: a segment of its own, never read back
    tile_tails[k] = first + k < num_tiles ? tails[first + k] : partial_t{-2, {}};
    if (first + k < num_tiles) tile_heads[k] = heads[first + k];
  }
  partial_t scanned[Items];  // the scan through each of them, within the block
  partial_t aggregate;
  scan_t(scan_storage).InclusiveScan(tile_tails, scanned, combine, aggregate);
  if (threadIdx.x == 0 && blockIdx.x + 1 < gridDim.x) {
    handover.aggregates[blockIdx.x] = aggregate;
    cuda::atomic_ref<int, cuda::thread_scope_device>(handover.ready[blockIdx.x]).store(1, cuda::memory_order_release);
  }
  if (threadIdx.x < 32) {
    // Lane l combines a run of the blocks before in order, then the lanes' results are combined
    // in lane order (warp_combine_in_order).
    const int lane = static_cast<int>(threadIdx.x), before = static_cast<int>(blockIdx.x);
    const int per_lane = (before + 31) / 32;
    partial_t mine{-1, {}};
    bool any = false;
    for (int p = lane * per_lane; p < detail::min_of(before, (lane + 1) * per_lane); ++p) {
      cuda::atomic_ref<int, cuda::thread_scope_device> ready(handover.ready[p]);
      while (ready.load(cuda::memory_order_acquire) == 0) {
      }
      const partial_t published = handover.aggregates[p];
      mine = any ? combine(mine, published) : published;
      any = true;
    }
    any = warp_combine_in_order(mine, any, combine);
    if (lane == 0) before_block = any ? mine : partial_t{-1, {}};
  }
  last_of_thread[threadIdx.x] = scanned[Items - 1];
  __syncthreads();
  const partial_t prefix = before_block;
  partial_t carried = threadIdx.x == 0 ? prefix : combine(prefix, last_of_thread[threadIdx.x - 1]);
  MERGEPATH_UNROLL
  for (int k = 0; k < Items; ++k) {
    const index_t t = first + k;
    if (t >= num_tiles) break;
    const tile_head<T>& head = tile_heads[k];
    // Segment -1 holds the items before a malformed first start: no output.
    if (head.closed && head.segment >= 0 && head.segment < num_segments)
      out[head.segment] = combine(carried, {head.segment, head.partial}).partial.finish(init, op);
    const partial_t through = combine(prefix, scanned[k]);
    if (t == num_tiles - 1 && through.segment >= 0 && through.segment < num_segments)
      out[through.segment] = through.partial.finish(init, op);
    carried = through;
  }
}

// Whether op(a, b) == op(b, a) for T: the stream kernel then folds a thread's items across
// sub-tiles in any order. mergepath's plus, minimum and maximum on arithmetic types.
template <class Op, class T>
struct op_commutes : std::false_type {};
template <class T>
struct op_commutes<plus<>, T> : std::is_arithmetic<T> {};
template <class T>
struct op_commutes<minimum<>, T> : std::is_arithmetic<T> {};
template <class T>
struct op_commutes<maximum<>, T> : std::is_arithmetic<T> {};

// An exact identity of a commutative op on T (up to 8 bytes: a warp shuffles it), where one
// exists: op(x, value()) == x for every x. Floating-point sums take -0.0 (x + -0.0 keeps a -0.0);
// minimum and maximum take none for floating point (NaN has no place in their order).
template <class Op, class T, class = void>
struct fold_identity {
  static constexpr bool exists = false;
};
template <class T>
struct fold_identity<plus<>, T, std::enable_if_t<std::is_arithmetic_v<T> && sizeof(T) <= 8>> {
  static constexpr bool exists = true;
  __device__ static T value() { return std::is_floating_point_v<T> ? static_cast<T>(-0.0) : T{0}; }
};
template <class T>
struct fold_identity<minimum<>, T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) <= 8>> {
  static constexpr bool exists = true;
  __device__ static T value() { return cuda::std::numeric_limits<T>::max(); }
};
template <class T>
struct fold_identity<maximum<>, T, std::enable_if_t<std::is_integral_v<T> && sizeof(T) <= 8>> {
  static constexpr bool exists = true;
  __device__ static T value() { return cuda::std::numeric_limits<T>::lowest(); }
};

// One index at every place: the other side of a merge-path search for a single value.
struct repeated_index {
  index_t value;
  __device__ index_t operator[](index_t) const { return value; }
};

// The least s in [0, n) with !(starts[s] < x), or n, for a whole warp (every lane returns it).
// First the 128 starts around `guess` (four a lane, one round of loads), which settle it when the
// answer lies among them (segments of similar lengths, guess = x * n / count); else
// block::warp_merge_path, ~log33(n) dependent rounds. With malformed starts the answer still
// lies in [0, n].
template <class StartsIt>
__device__ index_t warp_lower_bound(StartsIt starts, index_t n, index_t x, index_t guess) {
  const int lane = static_cast<int>(threadIdx.x) % 32;
  index_t lo = 0, hi = n;  // the answer lies in [lo, hi]
  {
    constexpr int per_lane = 4, window = 32 * per_lane;
    const index_t w0 =
        detail::min_of<index_t>(detail::max_of<index_t>(guess - window / 2, 0), detail::max_of<index_t>(n - window, 0));
    const index_t w1 = detail::min_of<index_t>(w0 + window, n);
    int below = 0;
    MERGEPATH_UNROLL
    for (int k = 0; k < per_lane; ++k) {
      const index_t p = w0 + lane * per_lane + k;
      below += p < w1 && static_cast<index_t>(starts[p]) < x;
    }
    const index_t total = block::warp_sum(static_cast<unsigned>(below));  // a prefix, when sorted
    if (total == 0)
      hi = w0;
    else if (total == w1 - w0)
      lo = w1;
    else
      lo = hi = w0 + total;
  }
  // Then the warp's 33-way merge-path search, with x at every place of the other side.
  return block::warp_merge_path<bounds::upper>(starts, repeated_index{x}, n, lo, hi, less<>{});
}

// How segmented_reduce_stream_kernel's blocks hand on the scan of their tails: block b's tail
// alone (aggregate[b]) or the scan through it (inclusive[b]), flagged in words[first_flag + b] as
// call * 4 + kind, where call is the number in words[call] (cuda_context::numbered_flag_words:
// flags of earlier calls never match, so nothing is cleared).
struct hand_on_words {
  static constexpr int call = 0, blocks_done = 1, first_flag = 2;
  static constexpr unsigned long long aggregate = 1, inclusive = 2;
};
template <class T>
struct block_hand_on {
  unsigned long long* words;
  segment_partial<T>* aggregate;
  segment_partial<T>* inclusive;
};

// The ring of sub-tiles that a block of segmented_reduce_stream_kernel streams through shared
// memory: Stages sub-tiles of Threads * Vectors 16-byte pieces, cp.async'ed Stages - 1 ahead. A
// warp copies 512 contiguous bytes at a time (a thread's own 64 bytes at a time read each 32-byte
// sector twice from L2), and a thread then reads its consecutive vectors; 16-byte piece p sits at
// swizzled(p), so neither side has bank conflicts.
template <int Threads, int Vectors, int Stages, class T>
struct subtile_ring {
  static constexpr int per_vector = static_cast<int>(16 / sizeof(T));
  static constexpr int items = Vectors * per_vector;  // consecutive items a thread
  static constexpr int tile_items = Threads * items;

  uint4* pieces;
  const T* values;
  index_t count;

  __device__ uint4* stage(index_t tile) const { return pieces + static_cast<int>(tile % Stages) * Vectors * Threads; }
  __device__ static int swizzled(int p) { return p ^ (p >> 3 & 7); }  // 8 neighbours' pieces on 8 bank groups

  // A sub-tile's pieces into its stage, a group of copies per sub-tile (empty past the block's
  // last); pieces that reach past count are read from global memory instead.
  __device__ void copy_ahead(index_t tile, index_t tile_end) const {
    if (tile < tile_end) {
      const index_t first = tile * tile_items;
      uint4* to = stage(tile);
      MERGEPATH_UNROLL
      for (int k = 0; k < Vectors; ++k) {
        const int p = k * Threads + static_cast<int>(threadIdx.x);
        if (first + (p + 1) * per_vector <= count)
          __pipeline_memcpy_async(to + swizzled(p), values + first + p * per_vector, 16);
      }
    }
    block::commit_copies();
  }

  // This thread's items of a sub-tile whose copies have landed, from its stage, or from global
  // memory past count's last whole piece (items past count repeat the last one, never used).
  __device__ void load_items(index_t tile, T (&item)[items]) const {
    const index_t tile_first = tile * tile_items;
    const int first = static_cast<int>(threadIdx.x) * items;
    if (tile_first + first + items <= count) {
      uint4 v[Vectors];
      MERGEPATH_UNROLL
      for (int k = 0; k < Vectors; ++k) v[k] = stage(tile)[swizzled(static_cast<int>(threadIdx.x) * Vectors + k)];
      memcpy(item, v, sizeof(item));
    } else {
      MERGEPATH_UNROLL
      for (int j = 0; j < items; ++j) item[j] = values[detail::min_of<index_t>(tile_first + first + j, count - 1)];
    }
  }
};

// A thread's items first.. of a sub-tile with one head: those before it fold into `ending`,
// those from it on into `begun`. Only the thread holding the head splits its items.
template <int Items, class T, class Op>
__device__ __forceinline__ void fold_either_side_of_head(const T (&item)[Items], int first, int head, T identity,
                                                         T& ending, T& begun, Op op) {
  if (first + Items <= head || first >= head) {
    T sum = item[0];
    MERGEPATH_UNROLL
    for (int j = 1; j < Items; ++j) sum = static_cast<T>(op(sum, item[j]));
    if (first >= head)
      begun = sum;
    else
      ending = static_cast<T>(op(ending, sum));
  } else {
    MERGEPATH_UNROLL
    for (int j = 0; j < Items; ++j) {
      const bool before_head = first + j < head;
      ending = static_cast<T>(op(ending, before_head ? item[j] : identity));
      begun = static_cast<T>(op(begun, before_head ? identity : item[j]));
    }
  }
}

// Every start of a sub-tile but the last (starts[cursor, cursor + tile_starts)) ends in it: init
// and the reduction of its items, which the walk left at its head in `results`, or init alone.
template <int Threads, class StartsIt, class T, class OutIt, class Op>
__device__ void write_ended_segments(StartsIt starts, index_t cursor, index_t tile_starts, index_t tile_first,
                                     int num_items, const T* results, OutIt out, T init, Op op) {
  auto offset_of = [&](index_t s) {
    return detail::min_of<index_t>(detail::max_of<index_t>(static_cast<index_t>(starts[s]) - tile_first, 0), num_items);
  };
  for (index_t k = threadIdx.x; k + 1 < tile_starts; k += Threads) {
    const index_t s = cursor + k;
    const index_t offset = offset_of(s);
    out[s] = offset < offset_of(s + 1) ? static_cast<T>(op(init, results[offset])) : init;
  }
}

// This call's number, which its hand-on flags carry (one thread a block). The last block to read
// it numbers the next call: every block read it before counting itself, and none reads it again.
__device__ inline unsigned long long take_call_number(unsigned long long* words, unsigned num_blocks) {
  using word_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  word_ref call_word(words[hand_on_words::call]), done(words[hand_on_words::blocks_done]);
  const unsigned long long number = call_word.load(cuda::memory_order_relaxed);
  if (done.fetch_add(1, cuda::memory_order_acq_rel) == num_blocks - 1) {
    done.store(0, cuda::memory_order_relaxed);
    call_word.store(number + 1, cuda::memory_order_relaxed);
  }
  return number;
}

// Marks the heads of a sub-tile's starts, those after `cursor` below the sub-tile's end, a window
// of Threads starts at a time (no head for a start at count, which has no item), and returns how
// many there are. The thread that meets the first start after them leaves it in
// `following_start`; `next_window` is this thread's start of the first window, loaded ahead.
template <int Threads, int TileItems, class StartsIt>
__device__ index_t mark_subtile_starts(StartsIt starts, index_t num_segments, index_t count, index_t cursor,
                                       index_t next_window, index_t tile_first, int num_items, bool last_tile,
                                       block::head_bitmap<TileItems>& head_bits, index_t& following_start) {
  index_t tile_starts = 0;
  for (;;) {
    const index_t s = cursor + tile_starts + static_cast<index_t>(threadIdx.x);
    bool here = false;
    index_t start = count;  // none past the last
    if (s < num_segments) {
      start = tile_starts == 0 ? next_window : static_cast<index_t>(starts[s]);
      const index_t offset = start - tile_first;
      here = last_tile || offset < num_items;
      if (here && offset < num_items) head_bits.set(static_cast<int>(detail::max_of<index_t>(offset, 0)));
    }
    const int window = __syncthreads_count(here);
    tile_starts += window;
    if (window < Threads) {
      if (static_cast<int>(threadIdx.x) == window) following_start = start;
      return tile_starts;
    }
  }
}

// What crosses segmented_reduce_stream_kernel's block ends, run by a block's first warp: `head`,
// the segment open at the block's start (closed when a head of the block ended it), and `tail`,
// the one open at its end. The blocks scan their tails by segment with a look-back: block b
// publishes its tail at once (an inclusive scan where its segment begins in the block, else an
// aggregate), then combines the publications of the blocks before it back to the nearest
// inclusive one, finishes its head with that scan, and publishes its own inclusive scan. A fix-up
// kernel after the stream cost more (its launch waits for the whole stream). The flags carry the
// call's number, so none is ever cleared.
template <class T, class OutIt, class Op>
__device__ void hand_on_block_ends(const tile_head<T>& head, const segment_partial<T>& tail,
                                   index_t segment_before_block, unsigned long long call, block_hand_on<T> hand_on,
                                   OutIt out, index_t num_segments, T init, Op op) {
  using partial_t = segment_partial<T>;
  using word_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;
  const int lane = static_cast<int>(threadIdx.x);
  const combine_segment_partials<T, Op> combine{op};
  const index_t block = blockIdx.x;
  auto publish = [&](const partial_t& scan, unsigned long long kind) {
    (kind == hand_on_words::inclusive ? hand_on.inclusive : hand_on.aggregate)[block] = scan;
    word_ref(hand_on.words[hand_on_words::first_flag + block]).store(call * 4 + kind, cuda::memory_order_release);
  };
  const bool tail_inclusive = block == 0 || tail.segment != segment_before_block;
  if (lane == 0) publish(tail, tail_inclusive ? hand_on_words::inclusive : hand_on_words::aggregate);
  // The scan through the block before: windows of 32 blocks, lane l the l-th of the window (lane
  // 31 the nearest), combined in order from the nearest inclusive publication on.
  partial_t before{-1, {}};
  bool any_before = false;
  for (index_t window_end = block; window_end > 0 && block > 0; window_end -= 32) {
    const index_t p = window_end - 32 + lane;
    unsigned long long flag = 0;
    if (p >= 0) {
      word_ref published(hand_on.words[hand_on_words::first_flag + p]);
      do flag = published.load(cuda::memory_order_acquire);
      while (flag / 4 != call || flag % 4 == 0);
    }
    const bool inclusive = p >= 0 && flag % 4 == hand_on_words::inclusive;
    const unsigned inclusive_lanes = __ballot_sync(0xffffffffu, inclusive);
    const int from = inclusive_lanes == 0 ? 0 : 31 - __clz(static_cast<int>(inclusive_lanes));
    bool any = p >= 0 && lane >= from;
    partial_t mine{-1, {}};
    if (any) mine = inclusive ? hand_on.inclusive[p] : hand_on.aggregate[p];
    any = warp_combine_in_order(mine, any, combine);
    const partial_t window = cub::ShuffleIndex<32>(mine, 0, 0xffffffffu);
    if (__shfl_sync(0xffffffffu, any, 0)) {
      before = any_before ? combine(window, before) : window;
      any_before = true;
    }
    if (inclusive_lanes != 0) break;
  }
  if (lane != 0) return;
  const partial_t through = combine(before, tail);
  if (!tail_inclusive) publish(through, hand_on_words::inclusive);
  // Segment -1 holds the items before a malformed first start: no output.
  if (head.closed && head.segment >= 0 && head.segment < num_segments)
    out[head.segment] = combine(before, {head.segment, head.partial}).partial.finish(init, op);
  if (block == gridDim.x - 1 && through.segment >= 0 && through.segment < num_segments)
    out[through.segment] = through.partial.finish(init, op);
}

// segmented_reduce over long segments (tuning/load_balance.hpp: segmented_reduce_stream_tuning):
// block b streams the sub-tiles [S * b / G, S * (b + 1) / G) of tile_items consecutive items
// through a ring of Stages sub-tiles in shared memory (cp.async, Stages - 1 ahead). A sub-tile's
// starts are the next ones after the block's cursor below its end (the cursor found by a warp's
// search at the block's first item, then moved a window of Threads starts at a time); they mark
// heads in a bitmap, and the walk and the scan of open runs are segmented_reduce_kernel's, with
// the run open at the sub-tile's start carried in from the one before. A sub-tile without a start
// is only folded into the open run (without a barrier of its own where the op commutes); one with
// a single start, where the op has an identity (OneStartReduce), ends the open segment by a block
// reduce of the threads' folds before the start and begins the next with the folds after it. What
// crosses blocks is handed on from block to block at the end (below). No partition pass and no
// fix-up kernel: at long means those two are a large share of a call.
template <int Threads, int Vectors, int Stages, int MinBlocks, bool OneStartReduce, class T, class StartsIt,
          class OutIt, class Op>
__global__ void __launch_bounds__(Threads, detail::launch_min_blocks(Threads, Threads* MinBlocks))
    segmented_reduce_stream_kernel(const T* values, index_t count, StartsIt starts, index_t num_segments,
                                   index_t num_subtiles, OutIt out, T init, Op op, block_hand_on<T> hand_on) {
  static_assert(sizeof(T) >= 4 && 16 % sizeof(T) == 0, "segmented_reduce_stream_kernel: 4-, 8- or 16-byte values");
  static_assert(Stages >= 2, "segmented_reduce_stream_kernel: a stage in use and one in flight at least");
  using ring_t = subtile_ring<Threads, Vectors, Stages, T>;
  constexpr int items = ring_t::items;
  constexpr int tile_items = ring_t::tile_items;
  static_assert(items <= 32 && 32 % items == 0, "segmented_reduce_stream_kernel: a thread's heads in one word");
  using join_t = join_open_runs<T, Op>;
  // Where the op commutes, the scan of open runs also reduces the threads' folds of the sub-tiles
  // without a start before this one (below): no block reduce and barrier of their own.
  constexpr bool fold_fast = op_commutes<Op, T>::value;
  using scan_item = std::conditional_t<fold_fast, open_run_with_fold<T>, open_run<T>>;
  using scan_join = std::conditional_t<fold_fast, join_open_runs_with_folds<T, Op>, join_t>;
  constexpr bool one_start_fast = fold_fast && OneStartReduce && fold_identity<Op, T>::exists;
  using run_scan = cub::BlockScan<scan_item, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
  // The ring of sub-tiles in flight (dynamic: Stages * tile_items * sizeof(T) bytes). Once all
  // threads have read a stage it holds each segment's result at its head.
  extern __shared__ uint4 ring_pieces[];
  // Two bitmaps, sub-tiles taking turns: one is cleared while the next sub-tile marks the other.
  __shared__ block::head_bitmap<tile_items> head_bitmaps[2];
  __shared__ typename run_scan::TempStorage scan_storage;
  __shared__ open_run<T> run_out;  // the run open at the sub-tile's end
  __shared__ bool open_at_end;     // whether that run belongs to the sub-tile's last start
  __shared__ index_t first_start;
  __shared__ index_t following_start;  // the first start after a sub-tile's
  using fold_reduce = cub::BlockReduce<T, Threads>;
  __shared__ typename fold_reduce::TempStorage fold_storage;
  // A block-wide result handed to every thread (raw bytes: T need not be trivially constructible).
  __shared__ alignas(T) unsigned char shared_value_bytes[sizeof(T)];
  T& shared_value = *reinterpret_cast<T*>(shared_value_bytes);
  __shared__ unsigned long long call;  // this call's number, which its hand-on flags carry
  // The segment open when the block begins, once a head of the block has ended it (raw bytes, as above).
  __shared__ alignas(tile_head<T>) unsigned char block_head_bytes[sizeof(tile_head<T>)];
  tile_head<T>& block_head = *reinterpret_cast<tile_head<T>*>(block_head_bytes);
  const join_t join{op};

  detail::wait_for_prior_grid();  // the values, the starts and the flags may come from the stream's previous kernel
  detail::allow_dependent_launch();
  const index_t tile_begin = num_subtiles * blockIdx.x / gridDim.x;
  const index_t tile_end = num_subtiles * (blockIdx.x + 1) / gridDim.x;
  const ring_t ring{ring_pieces, values, count};
  auto copy_ahead = [&](index_t tile) { ring.copy_ahead(tile, tile_end); };
  MERGEPATH_UNROLL
  for (int k = 0; k < Stages - 1; ++k) copy_ahead(tile_begin + k);
  if (threadIdx.x == Threads - 1) call = take_call_number(hand_on.words, gridDim.x);  // while the copies fly
  if (threadIdx.x < 32) {
    const index_t x = tile_begin * tile_items;
    const auto guess = static_cast<index_t>(static_cast<double>(x) / static_cast<double>(count) * num_segments);
    const index_t s = warp_lower_bound(starts, num_segments, x, guess);
    if (threadIdx.x == 0) first_start = s;
  }
  head_bitmaps[0].template clear<Threads>();
  head_bitmaps[1].template clear<Threads>();
  __syncthreads();

  // Block-uniform state: the next start not yet placed, the run open from earlier sub-tiles (head
  // 0: begun before this sub-tile; no_items: none in the block yet), and its segment once one of
  // the block's heads began it.
  index_t cursor = first_start;
  const index_t segment_before_block = cursor - 1;
  open_run<T> carry{open_run<T>::no_items, {}};
  bool begun_in_block = false;
  index_t carry_segment = segment_before_block;
  auto start_or_count = [&](index_t s) { return s < num_segments ? static_cast<index_t>(starts[s]) : count; };
  // The start at this thread's place in the next window, loaded a sub-tile ahead.
  index_t next_window = start_or_count(cursor + threadIdx.x);
  // Sub-tiles without a start (most, for long segments) take a path of their own where the op
  // commutes: each thread folds its items into `pending`, with no barrier, and the block reduces
  // the folds into the carried run in the next sub-tile's scan of open runs, or at the end.
  T pending{};
  bool any_pending = false;  // block-uniform
  index_t next_start = start_or_count(cursor);
  // The start after next_start (one_start_fast), loaded a sub-tile ahead of its use.
  index_t second_start = one_start_fast ? start_or_count(cursor + 1) : count;
  // A segment open at a sub-tile's start ends there: finished here when a head of the block began
  // it, else kept as the block's head, finished once the blocks before have handed on.
  auto finish_open = [&](const partial_reduction<T>& whole) {
    if (!begun_in_block)
      block_head = {segment_before_block, true, whole};
    else if (carry_segment >= 0 && carry_segment < num_segments)
      out[carry_segment] = whole.finish(init, op);
  };
  auto fold_pending = [&] {
    const T total = fold_reduce(fold_storage).Reduce(pending, op);
    if (threadIdx.x == 0) shared_value = total;
    __syncthreads();
    carry = join(carry, open_run<T>{0, shared_value});
    any_pending = false;
  };
  for (index_t tile = tile_begin; tile < tile_end; ++tile) {
    const index_t tile_first = tile * tile_items;
    const int num_items = static_cast<int>(detail::min_of<index_t>(count - tile_first, tile_items));
    const bool last_tile = tile_first + num_items == count;  // then every start left is this tile's
    block::head_bitmap<tile_items>& head_bits = head_bitmaps[tile % 2];
    T* results = reinterpret_cast<T*>(ring.stage(tile));

    // This thread's items, from the stage (or global memory past count's last whole piece). The
    // barrier also ends the previous sub-tile's reads of its stage, which the copies below reuse.
    block::wait_for_copies<Stages - 2>();
    __syncthreads();
    const int first = static_cast<int>(threadIdx.x) * items;
    T item[items];
    ring.load_items(tile, item);

    if constexpr (fold_fast) {
      if (!last_tile && next_start >= tile_first + tile_items) {
        T sum = item[0];
        MERGEPATH_UNROLL
        for (int j = 1; j < items; ++j) sum = static_cast<T>(op(sum, item[j]));
        pending = any_pending ? static_cast<T>(op(pending, sum)) : sum;
        any_pending = true;
        copy_ahead(tile + Stages - 1);
        continue;
      }
    }
    if constexpr (one_start_fast) {
      // One start, next_start, in the sub-tile: each thread's items before it join its fold of the
      // open segment, which one block reduce ends; those from it on begin the new segment's
      // folds. Only the thread holding the head splits its items. (Unsorted starts clamp to the
      // sub-tile: a wrong result, no stray access.)
      if (!last_tile && second_start >= tile_first + tile_items) {
        const int head =
            static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(next_start - tile_first, 0), tile_items));
        const T identity = fold_identity<Op, T>::value();
        T ending = any_pending ? pending : identity, begun = identity;
        fold_either_side_of_head(item, first, head, identity, ending, begun, op);
        copy_ahead(tile + Stages - 1);
        // (The next sub-tile's barrier frees fold_storage. A barrier-free form, the warps' folds
        // finished by thread 0 after that barrier, ran every mean slower:
        // docs/design/load-balance.md#what-was-tried.)
        const T total = fold_reduce(fold_storage).Reduce(ending, op);
        if (threadIdx.x == 0) finish_open(join(carry, open_run<T>{0, total}).partial());
        pending = begun;
        any_pending = true;
        begun_in_block = true;
        carry_segment = cursor;
        carry = {open_run<T>::no_items, {}};
        ++cursor;
        next_start = second_start;
        second_start = start_or_count(cursor + 1);
        next_window = start_or_count(cursor + threadIdx.x);
        continue;
      }
    }

    const index_t tile_starts = mark_subtile_starts<Threads>(starts, num_segments, count, cursor, next_window, tile_first,
                                                             num_items, last_tile, head_bits, following_start);
    copy_ahead(tile + Stages - 1);  // into the previous sub-tile's stage

    // The walk over this thread's items and the scan of open runs, as in segmented_reduce_kernel.
    const int mine = detail::max_of(detail::min_of(num_items - first, items), 0);
    const unsigned run_heads = head_bits.bits_from(first) & (mine == 32 ? ~0u : (1u << mine) - 1u);
    const thread_walk<T> walk = walk_thread_items(item, run_heads, first, num_items, results, op);
    const partial_reduction<T> before = walk.before;
    open_run<T> carried, tile_run;
    if constexpr (fold_fast) {
      scan_item scanned, total;
      run_scan(scan_storage).ExclusiveScan(scan_item{walk.open, pending}, scanned, scan_join{op}, total);
      carried = scanned.run;
      tile_run = total.run;
      if (any_pending) carry = join(carry, open_run<T>{0, total.fold});  // the folds precede the sub-tile
      any_pending = false;
    } else {
      run_scan(scan_storage).ExclusiveScan(walk.open, carried, join, tile_run);
    }
    if (threadIdx.x == 0) carried.head = open_run<T>::no_items;
    carried = join(carry, carried);
    tile_run = join(carry, tile_run);
    if (run_heads != 0) {  // this thread ends the segment open at its start
      const partial_reduction<T> whole = carried.partial().then(before, op);
      if (carried.head > 0)
        results[carried.head - 1] = whole.value;  // it began in this sub-tile
      else
        finish_open(whole);
    }
    const index_t last_start = cursor + tile_starts - 1;  // the tile's last start (or the one before)
    if (threadIdx.x == Threads - 1) {
      bool owned = true;  // the run open at the end belongs to last_start
      if (last_tile && tile_starts > 0) {
        // Trailing starts at count are empty: then the run ends with the items, and its segment
        // is an earlier one.
        owned = static_cast<index_t>(starts[last_start]) < count;
        if (!owned) {
          if (tile_run.head > 0)
            results[tile_run.head - 1] = tile_run.value;
          else
            finish_open(tile_run.partial());
        }
      }
      run_out = tile_run;
      open_at_end = owned;
    }
    __syncthreads();

    write_ended_segments<Threads>(starts, cursor, tile_starts, tile_first, num_items, results, out, init, op);
    head_bits.template clear<Threads>();  // every walk read it before the barrier; the next sub-tile marks the other
    const open_run<T> ended = run_out;
    if (ended.head > 0) {
      begun_in_block = true;
      carry_segment = last_start;
    }
    carry = {ended.head == open_run<T>::no_items ? open_run<T>::no_items : 0, ended.value};
    cursor += tile_starts;
    next_window = start_or_count(cursor + threadIdx.x);
    next_start = following_start;
    if constexpr (one_start_fast) second_start = start_or_count(cursor + 1);
  }

  // What crosses the block's ends: the segment open at its start (when no head of the block ended
  // it) and the one open at its end, handed on from block to block (hand_on_block_ends).
  if constexpr (fold_fast) {
    if constexpr (one_start_fast) __syncthreads();  // a one-start sub-tile's reduce may still read fold_storage
    if (any_pending) fold_pending();
  }
  __syncthreads();  // block_head, from whichever thread ended the segment
  if (threadIdx.x >= 32) return;
  tile_head<T> head = block_head;
  if (!begun_in_block && cursor == first_start) head = {segment_before_block, false, carry.partial()};
  segment_partial<T> tail{cursor - 1, carry.partial()};
  if (tile_end == num_subtiles && !open_at_end) tail.partial = {};  // (open_at_end: read after the last tile's barrier)
  hand_on_block_ends(head, tail, segment_before_block, call, hand_on, out, num_segments, init, op);
}

}  // namespace kernel
}  // namespace mergepath
