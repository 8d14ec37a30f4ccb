// Sort of one tile held in shared memory: each thread sorts ItemsPerThread keys in registers with
// sort_network (sort_network_unstable where equal keys are identical), or each warp its threads'
// keys (warp_bitonic_sort, integer keys alone), then the block merges the sorted runs pairwise,
// doubling them, until the whole tile is one run (the blocksort of moderngpu's Segmented Sort and
// Locality Sort). A near-sorted tile (locality_sort) first tries odd-even rounds of neighbouring
// runs.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "../thread/sorting_network.hpp"
#include "slice_check.cuh"
#include "tile_io.cuh"
#include "warp_sort.cuh"

namespace mergepath {
namespace block {

// Slots a blocksort buffer needs beyond its tile: serial_merge_n reads up to ItemsPerThread + 1
// slots past a run's end.
template <int ItemsPerThread>
constexpr int sort_padding = ItemsPerThread + 1;

// Whether a warp sorts its 32 threads' keys into one run in registers (warp_bitonic_sort) before
// the block's merge rounds: keys only, equal keys identical, a power of two a thread.
template <int ItemsPerThread, class Key, class Values, class Comp>
constexpr bool warp_sorts_runs =
    std::is_same_v<Values, std::nullptr_t> &&
    (ItemsPerThread & (ItemsPerThread - 1)) == 0 && equal_keys_are_identical<Key, Comp>::value;

// Sorts keys[0, count) (and values) into runs of RunThreads threads' keys and stores them back:
// with RunThreads 1 each thread sorts its ItemsPerThread keys in registers; with a warp's,
// each warp sorts its 32 x ItemsPerThread keys (warp_sorts_runs; padding past count sorts last).
// Starts and ends with a barrier: the tile must be visible to the block on entry, and the runs
// are on return.
template <int BlockThreads, int ItemsPerThread, int RunThreads = 1, class Key, class Values, class Comp>
__device__ void sort_runs_in_shared(Key* keys, Values values, int count, Comp comp) {
  static_assert(RunThreads == 1 || (RunThreads == warp_lanes && BlockThreads % warp_lanes == 0 &&
                                    warp_sorts_runs<ItemsPerThread, Key, Values, Comp>),
                "runs of a thread, or of a warp where it sorts them");
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  __syncthreads();
  Key thread_keys[items];
  load_items_from_shared(keys + first, thread_keys);
  if constexpr (RunThreads == warp_lanes) {
    warp_bitonic_sort(thread_keys, count - first, comp);
  } else if constexpr (has_values) {
    std::remove_reference_t<decltype(values[0])> thread_values[items];
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) thread_values[i] = values[first + i];
    sort_network(thread_keys, thread_values, count - first, comp);
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) values[first + i] = thread_values[i];
  } else if constexpr (equal_keys_are_identical<Key, Comp>::value) {
    sort_network_unstable(thread_keys, count - first, comp);  // the same output, in fewer steps
  } else {
    sort_network(thread_keys, count - first, comp);
  }
  store_items_to_shared(thread_keys, keys + first);
  __syncthreads();
}

// One round of merges of neighbouring runs of keys[0, count): this thread's ItemsPerThread
// outputs of merging the runs at a0 and a0 + width (each width keys; the second may be short or
// empty), stored back in place with their values. A thread with merges false keeps its keys (and
// reads nothing). Outputs past count are unspecified. Every thread calls it (an order that is not
// trusted is checked: slice_check.cuh); it ends with a barrier.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void merge_pair_round(Key* keys, Values values, int count, int a0, int width, bool merges, Comp comp) {
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  Key thread_keys[items];
  int source[items];
  const int a_count = detail::min_of(detail::max_of(count - a0, 0), width);
  const int b_count = detail::min_of(detail::max_of(count - a0 - width, 0), width);
  const int diag = detail::min_of(first - a0, a_count + b_count);
  const int a_end = a0 + a_count, b_end = a0 + width + b_count;
  int start = 0, walked_to = 0;
  if (merges) {
    start = a0 + merge_path(keys + a0, a_count, keys + a0 + width, b_count, diag, comp);
    walked_to = serial_merge_n<items>(keys, start, a_end, a0 + width + diag - (start - a0), b_end, thread_keys,
                                      source, comp);
  }
  if constexpr (!order_is_trusted<Key, Comp>) {
    if (slices_disagree<BlockThreads>(start, walked_to, merges && diag + items < a_count + b_count) && merges) {
      int a = a0, b = a0 + width;
      serial_merge_advance(keys, a, a_end, b, b_end, diag, comp);
      serial_merge_n<items>(keys, a, a_end, b, b_end, thread_keys, source, comp);
    }
  }
  if constexpr (has_values) {
    std::remove_reference_t<decltype(values[0])> thread_values[items];
    if (merges) {
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) thread_values[i] = values[source[i]];
    }
    __syncthreads();
    if (merges) store_items_to_shared(thread_values, values + first);
  } else {
    __syncthreads();
  }
  if (merges) store_items_to_shared(thread_keys, keys + first);
  __syncthreads();
}

// The tree rounds over keys[0, count)'s sorted runs of RunThreads threads' keys (each thread's
// ItemsPerThread, or a warp's): runs merged pairwise, doubling them, until the tile is one run.
// Ends with a barrier.
template <int BlockThreads, int ItemsPerThread, int RunThreads = 1, class Key, class Values, class Comp>
__device__ void merge_runs_by_tree(Key* keys, Values values, int count, Comp comp) {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the block merges runs pairwise: a power of two threads");
  const int tid = static_cast<int>(threadIdx.x);
  // The pair's first thread: pair_threads is a power of two, so no division.
  for (int pair_threads = 2 * RunThreads; pair_threads <= BlockThreads; pair_threads *= 2)
    merge_pair_round<BlockThreads, ItemsPerThread>(keys, values, count, ItemsPerThread * (tid & -pair_threads),
                                     ItemsPerThread * pair_threads / 2, true, comp);
}

// Sorts keys[0, count) (count <= BlockThreads * ItemsPerThread) in shared memory, stably, moving
// values[i] with keys[i] (Values = std::nullptr_t for keys only). Both buffers hold the tile plus
// sort_padding slots. Starts and ends with a barrier: the tile must be visible to the block on
// entry, and it is sorted and visible on return.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void sort_tile_in_shared(Key* keys, Values values, int count, Comp comp) {
  // Five doublings in registers where a warp sorts: at 512 x 8 int32 keys (2^12) the block's merge
  // rounds were most of a sort's time, bound by the SM's issue
  // (docs/design/merge-and-mergesort.md#design-and-invariants).
  constexpr int run_threads =
      warp_sorts_runs<ItemsPerThread, Key, Values, Comp> && BlockThreads % warp_lanes == 0 ? warp_lanes : 1;
  sort_runs_in_shared<BlockThreads, ItemsPerThread, run_threads>(keys, values, count, comp);
  merge_runs_by_tree<BlockThreads, ItemsPerThread, run_threads>(keys, values, count, comp);
}

// sort_tile_in_shared for a tile whose keys lie near their sorted places (locality_sort): after
// the threads' runs, odd-even transposition (runs 2p with 2p + 1, then 2p + 1 with 2p + 2, ...)
// until every run's last key is in order with the next run's first, which takes about as many
// rounds as the runs a key lies from its place, and is stable (each step a stable merge of
// neighbours). A tile whose runs max_rounds + 1 apart are out of order goes straight to the tree
// rounds, as does one still out of order after max_rounds; the tree sorts any tile of sorted
// runs, so the result is the same for any data, only the time differs.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void sort_near_sorted_tile_in_shared(Key* keys, Values values, int count, int max_rounds, Comp comp) {
  constexpr int items = ItemsPerThread;
  const int tid = static_cast<int>(threadIdx.x);
  const int last = items * tid + items - 1;  // this thread's run ends here
  sort_runs_in_shared<BlockThreads, ItemsPerThread>(keys, values, count, comp);
  // Whether run `ahead` runs on starts before this run ends (read after a barrier).
  auto starts_before_end = [&](int ahead) {
    const int next = last + 1 + items * (ahead - 1);
    return last < count && next < count && comp(keys[next], keys[last]);
  };
  const bool in_reach = __syncthreads_or(starts_before_end(max_rounds + 1)) == 0;
  for (int round = 0; in_reach && round < max_rounds; ++round) {
    if (!__syncthreads_or(starts_before_end(1))) return;
    const int parity = round & 1;
    const int a_run = ((tid - parity) & ~1) + parity;  // runs 2p + parity and 2p + parity + 1
    merge_pair_round<BlockThreads, items>(keys, values, count, items * a_run, items,
                                          a_run >= 0 && items * (a_run + 1) < count, comp);
  }
  if (in_reach && !__syncthreads_or(starts_before_end(1))) return;
  merge_runs_by_tree<BlockThreads, ItemsPerThread>(keys, values, count, comp);
}

}  // namespace block
}  // namespace mergepath
