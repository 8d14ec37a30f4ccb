// The GPU sorted search kernel: the merge's partition pass splits the Merge Path of A and B into
// tiles; each block loads its tile's two runs (with one element either side, for the match
// tests) into shared memory, each thread walks its steps of the path in registers, and the
// block scatters the results into A's and B's output runs in shared memory and stores them.
#pragma once

#include <cstdint>
#include <cub/block/block_scan.cuh>
#include <type_traits>

#include "../block/tile_io.cuh"
#include "../block/warp_merge_path.cuh"
#include "../block/warp_reduce.cuh"
#include "../detail/cache_hint.cuh"
#include "../detail/config.hpp"
#include "../detail/launch.cuh"
#include "../functional.hpp"
#include "../thread/binary_search.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_search.hpp"
#include "../tuning/sorted_search.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

// The element type a side's output holds (a placeholder for search::none, whose iterator may be
// nullptr).
template <search Type, class OutIt>
struct search_output {
  using type = search_output_t<OutIt>;
};
template <class OutIt>
struct search_output<search::none, OutIt> {
  using type = char;
};

// Shared memory of one tile: the keys (both runs, their halos and block::tile_padding), then,
// reusing the same bytes once the walk is done, A's and B's results, each run placed so that it
// agrees with its global destination modulo 16 bytes.
template <class Key, class AOutT, class BOutT, int TileItems, int ItemsPerThread>
struct search_layout {
  static constexpr std::size_t align16(std::size_t n) { return (n + 15) / 16 * 16; }
  static constexpr int halo = 4;  // one element before and after each run
  static constexpr std::size_t keys_bytes =
      align16(sizeof(Key) * (TileItems + halo + block::tile_padding<ItemsPerThread>));
  // A's results, then B's: a_n + b_n <= TileItems, each run shifted by up to 15 slots.
  static constexpr std::size_t results_bytes =
      detail::max_of(sizeof(AOutT), sizeof(BOutT)) * (TileItems + 16) + 16 * sizeof(BOutT) + 16;
  static constexpr std::size_t bytes = detail::max_of(keys_bytes, align16(results_bytes));
};

// An a-side output that takes the tile's results from shared memory itself: it has
// `template <int Threads, int Items, class Slot> store_tile(Slot* results, int n, index_t a0)`
// (Slot: index_t, or std::uint32_t where the counts fit), which every thread of every tile calls
// (tiles without a's keys too) and which may overwrite results, and
// `prepare(ctx, num_tiles)`, which the launch calls first (the join's bounds and their rows'
// offsets: kernel/join.cuh).
template <class Out, class = void>
constexpr bool is_tile_sink = false;
template <class Out>
constexpr bool is_tile_sink<Out, std::void_t<typename Out::tile_sink>> = true;

// How a side's results wait in shared memory for the tile's store: as the output type, or, with
// NarrowStaging (the search's counts fit 32 bits), plain 64-bit integer bounds as 32-bit ones the
// store (or a tile sink) widens. They then take the keys' bytes, not twice them, so twice the
// tiles fit an SM (int64 bounds of int32 keys, as numpy's searchsorted returns, and the join's
// bounds: docs/design/search.md#output-modes-and-counts).
template <search Type, class OutIt, bool NarrowStaging>
struct search_staging {
  using type = typename search_output<Type, OutIt>::type;
};
template <class OutIt>
struct search_staging<search::index, OutIt, true> {
  using out = search_output_t<OutIt>;
  static constexpr bool narrows =
      (std::is_pointer_v<OutIt> || is_tile_sink<OutIt>)&&std::is_integral_v<out> && sizeof(out) == 8;
  using type = std::conditional_t<narrows, std::uint32_t, out>;
};
template <search Type, class OutIt, bool NarrowStaging>
using search_staged_t = typename search_staging<Type, OutIt, NarrowStaging>::type;

// Whether staging narrow changes anything for these outputs.
template <search TypeA, search TypeB, class AOut, class BOut>
constexpr bool stages_narrow =
    !std::is_same_v<search_staged_t<TypeA, AOut, true>, search_staged_t<TypeA, AOut, false>> ||
    !std::is_same_v<search_staged_t<TypeB, BOut, true>, search_staged_t<TypeB, BOut, false>>;

template <class Policy, class AIt, class AOut, class BOut, search TypeA, search TypeB, bool NarrowStaging = false>
using search_layout_of =
    search_layout<search_output_t<AIt>, search_staged_t<TypeA, AOut, NarrowStaging>,
                  search_staged_t<TypeB, BOut, NarrowStaging>, Policy::tuning.tile_items(),
                  Policy::tuning.items_per_thread>;

// Where a run of T that will be stored to `out` starts in a 16-byte aligned buffer.
template <class T, class OutIt>
__device__ int store_residue(OutIt out) {
  if constexpr (std::is_pointer_v<OutIt> && std::is_same_v<search_output_t<OutIt>, T> && sizeof(T) < 16 &&
                16 % sizeof(T) == 0)
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(out) / sizeof(T) % (16 / sizeof(T)));
  else
    return 0;
}

// Where a's run of the tile [diag0, diag1) starts and ends: read from the partition pass, or,
// without one (partitions == nullptr: small inputs, where the pass's latency would dominate),
// found by the block itself.
template <int BlockThreads, bounds Bounds, class AIt, class BIt, class Comp>
__device__ block::tile_splits search_tile_splits(AIt a, index_t a_count, BIt b, index_t b_count,
                                                 const index_t* partitions, index_t diag0, index_t diag1, Comp comp) {
  if (!partitions) return block::find_tile_splits<BlockThreads, Bounds>(a, a_count, b, b_count, diag0, diag1, comp);
  index_t begin = partitions[blockIdx.x];
  return {begin, clamp_next_split(begin, partitions[blockIdx.x + 1], diag0, diag1)};
}

// A side's bounds as its results count them: in 32 bits where the output type keeps no more
// (the result is the same after the cast, and a step's arithmetic stays 32-bit), else index_t.
template <class Out>
using bound_counter_t = std::conditional_t<std::is_integral_v<Out> && sizeof(Out) <= 4, std::uint32_t, index_t>;

// search_result for a bound and bit k of `matched`: a 32-bit index_match shifts the flag straight
// into the top bit (two instructions; through a bool, the compiler spent four).
template <search Type, class Out, class Counter>
__device__ __forceinline__ Out step_result(Counter bound, unsigned matched, int k) {
  if constexpr (Type == search::index_match && std::is_same_v<Counter, std::uint32_t> && sizeof(Out) == 4)
    return static_cast<Out>(bound | ((matched << (31 - k)) & 0x80000000u));
  else
    return search_result<Type, Out>(static_cast<index_t>(bound), (matched >> k) & 1u);
}

// Writes one thread's results to shared memory from its walk's decisions (bit k of `taken` marks
// the steps it made): step k emits a's element at its bound in b, or b's at its bound in a, then
// moves that side on. a_slots / b_slots: where the thread's first a / b result goes; a_bound /
// b_bound: the bound of its first a in b / of its first b in a. Only the count of a steps is
// carried from step to step: after k steps b has moved k minus that count, and every address
// and bound is an offset of one or the other.
template <search TypeA, search TypeB, int Items, class AOutT, class BOutT>
__device__ __forceinline__ void scatter_search_results(search_steps decided, unsigned taken, AOutT* a_slots,
                                                       index_t a_bound, BOutT* b_slots, index_t b_bound) {
  const auto a_bound_first = static_cast<bound_counter_t<AOutT>>(a_bound);
  const auto b_bound_first = static_cast<bound_counter_t<BOutT>>(b_bound);
  constexpr bool both_sides = TypeA != search::none && TypeB != search::none && std::is_same_v<AOutT, BOutT>;
  constexpr unsigned all_steps = ~0u >> (32 - Items);
  if constexpr (both_sides) {
    if (taken == all_steps) {
      // Every step emits one result, a's or b's: one value, one store to one of two addresses
      // (predicated stores for both sides issued ~6 more instructions a step).
      int a_steps = 0;  // before step k
      MERGEPATH_UNROLL
      for (int k = 0; k < Items; ++k) {
        const bool from_a = (decided.from_a >> k) & 1u;
        AOutT result;
        if constexpr (TypeA == TypeB)
          result = step_result<TypeA, AOutT>(from_a ? a_bound_first + (k - a_steps) : b_bound_first + a_steps,
                                             decided.matched, k);
        else
          result = from_a ? step_result<TypeA, AOutT>(a_bound_first + (k - a_steps), decided.matched, k)
                          : step_result<TypeB, BOutT>(b_bound_first + a_steps, decided.matched, k);
        *(from_a ? a_slots + a_steps : b_slots + (k - a_steps)) = result;
        a_steps += from_a;
      }
      return;
    }
  }
  const unsigned b_steps = ~decided.from_a & taken;
  int a_steps = 0;  // before step k
  MERGEPATH_UNROLL
  for (int k = 0; k < Items; ++k) {
    const bool from_a = (decided.from_a >> k) & 1u;
    if constexpr (TypeA != search::none)
      if (from_a) a_slots[a_steps] = step_result<TypeA, AOutT>(a_bound_first + (k - a_steps), decided.matched, k);
    if constexpr (TypeB != search::none)
      if ((b_steps >> k) & 1u)
        b_slots[k - a_steps] = step_result<TypeB, BOutT>(b_bound_first + a_steps, decided.matched, k);
    a_steps += from_a;
  }
}

// Where the match counts add up: per block, then one atomic per block and side into one of
// `slots` counters (hundreds of thousands of atomics on one address serialize: measured, they
// doubled the complete search's time); then match_totals_kernel sums the slots into `totals`,
// host memory the caller reads (cuda_context::result_words), and clears them for the next search.
// A ticket for the grid's last block to sum them instead cost more (an atomic per block on one
// address).
struct match_totals {
  static constexpr int slots = 64;
  static constexpr int words = 2 * slots;
  unsigned long long* counters;  // 2 * slots, A's and B's side by side; zero before the search
  std::uint64_t* totals;         // A's, B's, then `sequence` once both are stored
  std::uint64_t sequence;
};

// One block's match counts on their way to the slots: each warp sums its threads' (one
// instruction per side) into shared memory; after the block's next barrier, warp 0 adds them up
// and to a slot, as match_totals says.
template <int BlockThreads>
struct block_match_counts {
  static_assert(BlockThreads % 32 == 0 && BlockThreads <= 1024, "whole warps");
  static constexpr int warps = BlockThreads / 32;
  unsigned per_warp[2][warps];

  __device__ void add_warp(unsigned a_matches, unsigned b_matches) {
    a_matches = block::warp_sum(a_matches);
    b_matches = block::warp_sum(b_matches);
    if (threadIdx.x % 32 == 0) {
      per_warp[0][threadIdx.x / 32] = a_matches;
      per_warp[1][threadIdx.x / 32] = b_matches;
    }
  }
  // By warp 0 only, after a barrier that follows every warp's add_warp.
  __device__ void add_block(match_totals out) const {
    const int lane = threadIdx.x % 32;
    unsigned a_matches = block::warp_sum(lane < warps ? per_warp[0][lane] : 0u);
    unsigned b_matches = block::warp_sum(lane < warps ? per_warp[1][lane] : 0u);
    unsigned long long* slot = out.counters + 2 * (blockIdx.x % match_totals::slots);
    if (lane == 0 && a_matches) atomicAdd(slot, static_cast<unsigned long long>(a_matches));
    if (lane == 0 && b_matches) atomicAdd(slot + 1, static_cast<unsigned long long>(b_matches));
  }
};

// totals[side] = the sum of the side's Slots (match_totals::slots) counters, one warp per side,
// which it leaves zero; then totals[2] = sequence, which tells the waiting host both are there.
template <int Slots>
__global__ void __launch_bounds__(64) match_totals_kernel(match_totals matches) {
  detail::wait_for_prior_grid();  // the tile kernel
  const int side = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned long long sum = 0;
  for (int s = lane; s < Slots; s += 32) {
    sum += matches.counters[2 * s + side];
    matches.counters[2 * s + side] = 0;
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(~0u, sum, offset);
  if (lane == 0) {
    matches.totals[side] = sum;
    __threadfence_system();  // the total reaches the host before the sequence does
  }
  __syncthreads();
  if (threadIdx.x == 0) *static_cast<volatile std::uint64_t*>(matches.totals + 2) = matches.sequence;
}

// One tile per block. `matches` collects the matches of the sides that report them.
template <class Policy, bounds Bounds, search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut,
          class Comp, bool NarrowStaging = false>
__global__ void __launch_bounds__(Policy::tuning.block_threads, Policy::tuning.min_blocks_per_sm())
    sorted_search_tile_kernel(AIt a, index_t a_count, BIt b, index_t b_count, const index_t* partitions, AOut a_out,
                              BOut b_out, match_totals matches, Comp comp) {
  constexpr sorted_search_tuning tuning = Policy::tuning;
  constexpr int threads = tuning.block_threads;
  constexpr int items = tuning.items_per_thread;
  constexpr int tile_items = tuning.tile_items();
  using Key = search_output_t<AIt>;
  using AOutT = search_staged_t<TypeA, AOut, NarrowStaging>;
  using BOutT = search_staged_t<TypeB, BOut, NarrowStaging>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* keys = reinterpret_cast<Key*>(shared_bytes);
  // The next search's partition pass may get ready while this grid drains; it waits for it.
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the partition pass, or whatever wrote a and b

  // The tile's span of the path: a[a0, a0 + a_n) and b[b0, b0 + b_n).
  const index_t total = a_count + b_count;
  const index_t diag0 = static_cast<index_t>(blockIdx.x) * tile_items;
  const index_t diag1 = detail::min_of(diag0 + tile_items, total);
  const block::tile_splits splits =
      search_tile_splits<threads, Bounds>(a, a_count, b, b_count, partitions, diag0, diag1, comp);
  const index_t a0 = splits.begin, a1 = splits.end;
  const index_t b0 = diag0 - a0;
  const int a_n = static_cast<int>(a1 - a0);
  const int b_n = static_cast<int>((diag1 - a1) - b0);
  const int count = a_n + b_n;
  // A side without output leaves nothing to do in a tile without the other side's keys (needles
  // on few distinct keys leave most of a long b's tiles without one).
  if constexpr (TypeB == search::none && !is_tile_sink<AOut>)
    if (a_n == 0) return;
  if constexpr (TypeA == search::none)
    if (b_n == 0) return;

  // Each run with its neighbours where they exist: the match tests look one element past it.
  const int a_before = a0 > 0, a_after = a1 < a_count;
  const int b_before = b0 > 0, b_after = b0 + b_n < b_count;
  block::tile_layout runs = block::tile_layout_for<Key>(a + (a0 - a_before), a_n + a_before + a_after,
                                                        b + (b0 - b_before), b_n + b_before + b_after);
  block::copy_run_to_shared<threads, tile_items + 2>(a + (a0 - a_before), runs.a_count, keys, runs.a_pos);
  block::copy_run_to_shared<threads, tile_items + 2>(b + (b0 - b_before), runs.b_count, keys, runs.b_pos);
  block::commit_copies();
  block::wait_for_copies<0>();
  __syncthreads();
  const Key* a_keys = keys + runs.a_pos + a_before;  // a_keys[k] = a[a0 + k], k in [-a_before, a_n + a_after)
  const Key* b_keys = keys + runs.b_pos + b_before;

  // Walk this thread's steps, keeping only the decisions (which side each step emitted, and
  // whether it matched): the bounds follow from them, so the scatter below recomputes them.
  const int diag = detail::min_of(items * static_cast<int>(threadIdx.x), count);
  const int steps = detail::min_of(items, count - diag);
  int i_first = merge_path<Bounds>(a_keys, a_n, b_keys, b_n, diag, comp);
  int j_first = diag - i_first;
  const search_runs<const Key*> tile_runs{a_keys, a_n, a_before, a_after, b_keys, b_n, b_before, b_after};
  constexpr bool match_a = reports_matches(TypeA), match_b = reports_matches(TypeB);
  search_steps decided;
  if (a_after && b_after) {  // the runs' next elements end the walk: no end tests
    decided = serial_search_n<Bounds, match_a, match_b, items, run_ends::by_neighbours>(tile_runs, i_first, j_first,
                                                                                        steps, comp);
    if (!search_steps_fit(tile_runs, i_first, j_first, decided, steps))  // unsorted input
      decided = serial_search_n<Bounds, match_a, match_b, items>(tile_runs, i_first, j_first, steps, comp);
  } else {
    decided = serial_search_n<Bounds, match_a, match_b, items>(tile_runs, i_first, j_first, steps, comp);
  }
  if constexpr (!block::order_is_trusted<Key, Comp>) {
    // Under any other order the slices may not tile the runs: then each thread walks to its start.
    if (block::slices_disagree<threads>(i_first, i_first + __popc(decided.from_a), diag + items < count)) {
      i_first = 0, j_first = 0;
      serial_merge_advance<Bounds>(a_keys, i_first, a_n, b_keys, j_first, b_n, diag, comp);
      decided = serial_search_n<Bounds, match_a, match_b, items>(tile_runs, i_first, j_first, steps, comp);
    }
  }
  __syncthreads();  // the keys are read; their bytes now take the results

  AOutT* a_results = reinterpret_cast<AOutT*>(shared_bytes);
  int a_slots = 0;  // what A's results take
  if constexpr (TypeA != search::none) {
    if constexpr (!is_tile_sink<AOut>) a_results += store_residue<AOutT>(a_out + a0);
    a_slots = static_cast<int>(a_results - reinterpret_cast<AOutT*>(shared_bytes)) + a_n;
  }
  std::size_t b_offset = (a_slots * sizeof(AOutT) + 15) / 16 * 16;
  BOutT* b_results = reinterpret_cast<BOutT*>(shared_bytes + b_offset);
  if constexpr (TypeB != search::none) b_results += store_residue<BOutT>(b_out + b0);
  const unsigned taken = steps >= 32 ? ~0u : (1u << steps) - 1;
  scatter_search_results<TypeA, TypeB, items>(decided, taken, a_results + i_first, b0 + j_first, b_results + j_first,
                                              a0 + i_first);
  constexpr bool counts_matches = reports_matches(TypeA) || reports_matches(TypeB);
  __shared__ block_match_counts<threads> block_matches;
  if constexpr (counts_matches)
    block_matches.add_warp(__popc(decided.matched & decided.from_a), __popc(decided.matched & ~decided.from_a));
  __syncthreads();
  if constexpr (counts_matches)
    if (threadIdx.x < 32) block_matches.add_block(matches);
  if constexpr (is_tile_sink<AOut>)
    a_out.template store_tile<threads, items>(a_results, a_n, a0);
  else if constexpr (TypeA != search::none)
    block::store_shared_to_global<threads, items>(a_results, a_n, a_out + a0);
  if constexpr (TypeB != search::none) block::store_shared_to_global<threads, items>(b_results, b_n, b_out + b0);
}

// Plain bounds of sorted needles a in a much longer b, by fixed tiles of b (sorted_search_tuning::
// b_tile_ratio): block t finds the bounds of the needles that fall in b[t * TileKeys, (t + 1) *
// TileKeys), firsts[t] to firsts[t + 1], each by binary search of the tile in shared memory. A
// tile reads b only where needles fall: few distinct or clustered needles leave most tiles empty.
// (A first wave of tiles that asked for their keys before it knew its needles gained little on
// random needles and lost on clustered ones: docs/design/search.md#4-what-was-tried.)

// A tile whose needles are more than one tile's worth: the rest, [from, to), are left to
// b_tile_overflow_kernel, so that needles piled into few tiles are stored by the whole grid.
struct b_tile_overflow {
  index_t b_begin, from, to;
  index_t bound;  // every needle's bound where they are all equivalent, else -1 (search each)
  int b_count;
};
struct b_tile_overflow_list {
  int* count;  // zeroed by b_tile_needles_kernel
  b_tile_overflow* entries;
  int capacity;  // a_count / TileKeys + 1 hold every entry of sorted needles; beyond, none is kept
};

// A value for every index: merge_path against it is a bound search of a.
template <class T>
struct repeated_value {
  T value;
  __device__ T operator[](index_t) const { return value; }
};

// firsts[t] = the first needle whose bound lies at or after b[t * tile_keys] (firsts[0] = 0,
// firsts[num_tiles] = a_count), one warp a tile edge, ~log33(a_count) rounds of loads. For any
// data the answers lie in [0, a_count].
template <int BlockThreads, bounds Bounds, class AIt, class BIt, class Comp>
__global__ void __launch_bounds__(BlockThreads)
    b_tile_needles_kernel(AIt a, index_t a_count, BIt b, index_t tile_keys, index_t num_tiles, index_t* firsts,
                          b_tile_overflow_list overflow, Comp comp) {
  detail::allow_dependent_launch();  // the tile kernel's blocks start and wait for firsts
  const index_t edge = (blockIdx.x * static_cast<index_t>(BlockThreads) + threadIdx.x) / block::warp_lanes;
  if (edge == 0 && threadIdx.x == 0) *overflow.count = 0;
  if (edge > num_tiles) return;
  // A lower bound lies before the edge while its needle does not follow the key there; an upper
  // bound while its needle precedes it: merge_path's tie rules for a against that key repeated.
  constexpr bounds rule = Bounds == bounds::lower ? bounds::lower : bounds::upper;
  index_t first = edge == 0 ? 0 : a_count;
  if (edge > 0 && edge < num_tiles)
    first = block::warp_merge_path<rule>(a, repeated_value<value_of<BIt>>{b[edge * tile_keys - 1]}, a_count, 0, a_count,
                                         comp);
  if (threadIdx.x % block::warp_lanes == 0) firsts[edge] = first;
}

// Whether the sorted needles a[first, last) are all equivalent, so that they share one bound: few
// distinct needle keys pile into few tiles, and one search then serves the pile. For unsorted
// needles the shared bound is still one that lies in the tile.
template <class AIt, class Comp>
__device__ bool one_needle_key(AIt a, index_t first, index_t last, Comp comp) {
  return last - first > 1 && !comp(a[first], a[last - 1]);
}

// One block a tile of b, started once firsts is known (b_tile_needles_kernel): a tile without
// needles is skipped, one with needles loaded into shared memory. (Searching tiles of up to 16 or
// 64 needles in b itself instead changed nothing measurable.) Each tile takes at most TileKeys
// needles and lists the rest. For any data nothing outside a, b, firsts, the list and
// a_out[0, a_count) is touched.
template <int BlockThreads, int TileKeys, bounds Bounds, class AIt, class BIt, class AOut, class Comp>
__global__ void __launch_bounds__(BlockThreads)
    b_tile_search_kernel(AIt a, BIt b, index_t b_count, const index_t* firsts, b_tile_overflow_list overflow,
                         AOut a_out, Comp comp) {
  using Key = value_of<BIt>;
  using Out = search_output_t<AOut>;
  __shared__ __align__(16) unsigned char tile_bytes[sizeof(Key) * (TileKeys + block::tile_padding<0>)];
  Key* tile = reinterpret_cast<Key*>(tile_bytes);
  detail::wait_for_prior_grid();  // firsts
  const index_t first = firsts[blockIdx.x];
  const index_t last = detail::max_of(firsts[blockIdx.x + 1], first);
  if (first == last) return;
  const index_t b_begin = blockIdx.x * static_cast<index_t>(TileKeys);
  const int count = static_cast<int>(detail::min_of<index_t>(TileKeys, b_count - b_begin));
  const int pos = block::aligned_position<Key>(b + b_begin, 0);
  block::copy_run_to_shared<BlockThreads, TileKeys>(b + b_begin, count, tile, pos);
  block::commit_copies();
  const index_t stop = detail::min_of<index_t>(last, first + TileKeys);
  const bool one_key = one_needle_key(a, first, last, comp);
  block::wait_for_copies<0>();
  __syncthreads();
  const Key* keys = tile + pos;
  // A pile of equivalent needles: every thread runs the same search (broadcast reads).
  const index_t pile_bound = one_key ? b_begin + binary_search_bound<Bounds>(keys, count, a[first], comp) : -1;
  for (index_t i = first + threadIdx.x; i < stop; i += BlockThreads)
    a_out[i] = search_result<search::index, Out>(
        one_key ? pile_bound : b_begin + binary_search_bound<Bounds>(keys, count, a[i], comp), false);
  if (threadIdx.x == 0 && stop < last) {
    const int slot = atomicAdd(overflow.count, 1);
    if (slot < overflow.capacity) overflow.entries[slot] = {b_begin, stop, last, pile_bound, count};
  }
}

// The needles the tiles left, spread evenly over the whole grid: the listed ranges, up to
// BlockThreads at a time, are laid end to end and each block takes an equal share of their needles
// (a block's share can span many ranges, or a few needles of one: ranges of a few needles each,
// one at a time for every block, made chains of dependent searches on clustered needles). A pile of
// equivalent needles takes its one bound; any other needle a search of its range's tile where it
// lies in b (too few needles a block to pay for a copy of the tile; its upper levels stay in L1).
template <int BlockThreads, bounds Bounds, class AIt, class BIt, class AOut, class Comp>
__global__ void __launch_bounds__(BlockThreads)
    b_tile_overflow_kernel(AIt a, BIt b, b_tile_overflow_list overflow, AOut a_out, Comp comp) {
  using Out = search_output_t<AOut>;
  using scan = cub::BlockScan<index_t, BlockThreads>;
  __shared__ b_tile_overflow listed[BlockThreads];
  __shared__ index_t starts[BlockThreads + 1];  // the chunk's needles before each listed range
  __shared__ typename scan::TempStorage scan_storage;
  detail::wait_for_prior_grid();  // the tiles' list
  const int entries = detail::min_of(*overflow.count, overflow.capacity);
  for (int chunk = 0; chunk < entries; chunk += BlockThreads) {
    const int chunk_entries = detail::min_of(BlockThreads, entries - chunk);
    __syncthreads();  // the last chunk's ranges are read
    index_t length = 0;
    if (static_cast<int>(threadIdx.x) < chunk_entries) {
      listed[threadIdx.x] = overflow.entries[chunk + threadIdx.x];
      length = listed[threadIdx.x].to - listed[threadIdx.x].from;
    }
    index_t before, total;
    scan(scan_storage).ExclusiveSum(length, before, total);
    starts[threadIdx.x] = before;
    if (threadIdx.x == 0) starts[BlockThreads] = total;
    __syncthreads();
    const index_t share = detail::ceil_div<index_t>(total, gridDim.x);
    const index_t begin = detail::min_of<index_t>(total, share * blockIdx.x);
    const index_t end = detail::min_of<index_t>(total, begin + share);
    for (index_t g = begin + threadIdx.x; g < end; g += BlockThreads) {
      // The range that holds the chunk's needle g: the last one starting at or before it.
      const int e = binary_search_bound<bounds::upper>(starts + 1, chunk_entries, g, less<>{});
      const b_tile_overflow range = listed[e];
      const index_t i = range.from + (g - starts[e]);
      const index_t bound =
          range.bound >= 0 ? range.bound
                           : range.b_begin + binary_search_bound<Bounds>(b + range.b_begin, range.b_count, a[i], comp);
      a_out[i] = search_result<search::index, Out>(bound, false);
    }
  }
}

// `keys` (a pointer into global memory) as a base the compiler keeps: it otherwise folds the
// offset it was built with into every later index, so that each step of a search from it adds a
// 64-bit offset (4 instructions) where one IMAD.WIDE serves. Other iterators pass through.
template <class It>
__device__ It search_base(It keys) {
  if constexpr (std::is_pointer_v<It>) {
    asm("" : "+l"(keys));
    __builtin_assume(__isGlobal(keys));
  }
  return keys;
}

// The search for a few needles in a long b (b_count at least sorted_search_tuning::
// needle_search_ratio times a_count): no tile reads all of b; each thread finds one needle's
// bound by binary search. With samples (every 2^shift-th key of b, from merge_samples_kernel, 32
// KB that stay in L1) it searches them first, then the window of b between two samples, so that
// only the window's reads reach L2 and DRAM; without (samples null: from needle_sample_max_ratio,
// or b in L2) it searches all of b, beyond L2 sparing L1 (l1_spare_keys > 0, below). The steps
// are in 32 bits where the counts allow, and through the samples by fixed halving (only load,
// compare, select and add on a step's chain): where the reads hit in cache the kernel is bound by
// those instructions (docs/design/search.md#4-what-was-tried has the variants that did not pay).
// The needles need not be sorted for a correct result (only b); for any data the results lie in
// [0, b_count] and nothing outside a, b and the samples is read.
template <int BlockThreads, bounds Bounds, class AIt, class BIt, class AOut, class Comp>
__global__ void __launch_bounds__(BlockThreads)
    needle_search_kernel(AIt a, index_t a_count, BIt b, index_t b_count, int shift, const value_of<BIt>* samples,
                         int l1_spare_keys, AOut a_out, Comp comp) {
  const bool sampled = samples != nullptr;  // else the search starts from all of b
  // At most partition_sample_bytes of samples: their count fits an int.
  const int sample_count = sampled ? static_cast<int>(((b_count - 1) >> shift) + 1) : 0;
  const bool narrow = sampled ? shift < 31 : b_count <= index_t{0x7fffffff};  // a window's steps in 32 bits
  detail::wait_for_prior_grid();  // the samples
  detail::allow_dependent_launch();
  for (index_t i = blockIdx.x * static_cast<index_t>(BlockThreads) + threadIdx.x; i < a_count;
       i += static_cast<index_t>(gridDim.x) * BlockThreads) {
    const auto key = a[i];
    index_t bound;
    if (sampled) {
      // The bound lies after sample s - 1 and at or before sample s (or b's end).
      const index_t s = fixed_halving_bound<Bounds>(samples, sample_count, key, comp);
      const index_t lo = s == 0 ? 0 : ((s - 1) << shift) + 1;
      const index_t window = (s < sample_count ? (s << shift) : b_count) - lo;
      const BIt window_keys = search_base(b + lo);
      bound = lo + (narrow ? fixed_halving_bound<Bounds>(window_keys, static_cast<int>(window), key, comp)
                           : fixed_halving_bound<Bounds>(window_keys, window, key, comp));
    } else if (l1_spare_keys > 0 && narrow) {
      // The steps whose window spans more than one 128-byte line and at most l1_spare_keys keys
      // read a line that serves this needle once: L1 evicts those first, and keeps the upper
      // levels' lines that warps share and the last line, which the last steps read again.
      constexpr int line_keys = detail::max_of(1, static_cast<int>(128 / sizeof(value_of<BIt>)));
      int base = 0, count = static_cast<int>(b_count);
      fixed_halving_steps<Bounds>(b, base, count, l1_spare_keys, key, comp, detail::plain_load{});
      fixed_halving_steps<Bounds>(b, base, count, line_keys, key, comp, detail::l1_evict_first_load{});
      fixed_halving_steps<Bounds>(b, base, count, 0, key, comp, detail::plain_load{});
      bound = base;
    } else {
      // Here the halving by comparison measured faster than the fixed one
      // (docs/design/search.md#4-what-was-tried).
      bound = narrow ? binary_search_bound<Bounds>(b, static_cast<int>(b_count), key, comp)
                     : binary_search_bound<Bounds>(b, b_count, key, comp);
    }
    a_out[i] = search_result<search::index, search_output_t<AOut>>(bound, false);
  }
}

}  // namespace kernel
}  // namespace mergepath
