// Sort of one tile held in shared memory: each thread sorts ItemsPerThread keys in registers
// with sort_network (sort_network_unstable where equal keys are identical), then the block
// merges the sorted runs pairwise, doubling them, until the whole tile is one run (seed 003's
// blocksort). A near-sorted tile (locality_sort) first tries odd-even rounds of neighbouring runs.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "../thread/sorting_network.hpp"

namespace mergepath {
namespace block {

// Slots a blocksort buffer needs beyond its tile: serial_merge_n reads up to ItemsPerThread + 1
// slots past a run's end.
template <int ItemsPerThread>
constexpr int sort_padding = ItemsPerThread + 1;

// keys[0, count) holds sorted runs of `width` = ItemsPerThread * pair_threads / 2 keys (the
// last may be shorter). Each thread produces the ItemsPerThread outputs [ItemsPerThread * t, ...)
// of merging the runs pairwise (run 2r with run 2r + 1, in place): out[i] is the key, source[i]
// where it came from in keys. Outputs past count are unspecified.
template <int ItemsPerThread, class T, class Comp>
__device__ void merge_runs_in_shared(const T* keys, int count, int pair_threads, T (&out)[ItemsPerThread],
                                     int (&source)[ItemsPerThread], Comp comp) {
  const int width = ItemsPerThread * pair_threads / 2;
  int first = ItemsPerThread * static_cast<int>(threadIdx.x);
  // The pair's first thread (pair_threads is a power of two: no division).
  int a0 = ItemsPerThread * (static_cast<int>(threadIdx.x) & -pair_threads);
  int a_count = detail::min_of(detail::max_of(count - a0, 0), width);
  int b_count = detail::min_of(detail::max_of(count - a0 - width, 0), width);
  int diag = detail::min_of(first - a0, a_count + b_count);
  int split = merge_path(keys + a0, a_count, keys + a0 + width, b_count, diag, comp);
  serial_merge_n<ItemsPerThread>(keys, a0 + split, a0 + a_count, a0 + width + diag - split, a0 + width + b_count, out,
                                 source, comp);
}

// Each thread sorts its ItemsPerThread keys of keys[0, count) (and values) in registers and
// stores them back: sorted runs of ItemsPerThread. Starts and ends with a barrier: the tile must
// be visible to the block on entry, and the runs are on return.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void sort_thread_runs_in_shared(Key* keys, Values values, int count, Comp comp) {
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  __syncthreads();
  Key thread_keys[items];
  MERGEPATH_UNROLL
  for (int i = 0; i < items; ++i) thread_keys[i] = keys[first + i];
  if constexpr (has_values) {
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
  MERGEPATH_UNROLL
  for (int i = 0; i < items; ++i) keys[first + i] = thread_keys[i];
  __syncthreads();
}

// The tree rounds over keys[0, count)'s sorted runs of ItemsPerThread (each thread's): runs
// merged pairwise, doubling them, until the tile is one run. Ends with a barrier.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void merge_runs_by_tree(Key* keys, Values values, int count, Comp comp) {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the block merges runs pairwise: a power of two threads");
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  for (int pair_threads = 2; pair_threads <= BlockThreads; pair_threads *= 2) {
    Key thread_keys[items];
    int source[items];
    merge_runs_in_shared(keys, count, pair_threads, thread_keys, source, comp);
    if constexpr (has_values) {
      std::remove_reference_t<decltype(values[0])> thread_values[items];
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) thread_values[i] = values[source[i]];
      __syncthreads();
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) values[first + i] = thread_values[i];
    } else {
      __syncthreads();
    }
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) keys[first + i] = thread_keys[i];
    __syncthreads();
  }
}

// Sorts keys[0, count) (count <= BlockThreads * ItemsPerThread) in shared memory, stably, moving
// values[i] with keys[i] (Values = std::nullptr_t for keys only). Both buffers hold the tile plus
// sort_padding slots. Starts and ends with a barrier: the tile must be visible to the block on
// entry, and it is sorted and visible on return.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void sort_tile_in_shared(Key* keys, Values values, int count, Comp comp) {
  sort_thread_runs_in_shared<BlockThreads, ItemsPerThread>(keys, values, count, comp);
  merge_runs_by_tree<BlockThreads, ItemsPerThread>(keys, values, count, comp);
}

// One round of pairwise merges of keys[0, count)'s runs: each thread's ItemsPerThread outputs of
// merging the pair its run belongs to, run a_run with run a_run + 1 (each run_width keys, the
// last shorter), stored back in place with their values. Threads whose pair has no second run
// (or no first, a_run < 0) keep their keys. Every thread calls it; it ends with a barrier.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void merge_pair_round(Key* keys, Values values, int count, int a_run, int run_width, Comp comp) {
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  const int a0 = a_run * run_width;
  const bool merges = a_run >= 0 && a0 + run_width < count;
  Key thread_keys[items];
  int source[items];
  if (merges) {
    const int a_count = run_width;
    const int b_count = detail::min_of(count - a0 - run_width, run_width);
    const int diag = detail::min_of(first - a0, a_count + b_count);
    const int split = merge_path(keys + a0, a_count, keys + a0 + run_width, b_count, diag, comp);
    serial_merge_n<items>(keys, a0 + split, a0 + a_count, a0 + run_width + diag - split, a0 + run_width + b_count,
                          thread_keys, source, comp);
  }
  if constexpr (has_values) {
    std::remove_reference_t<decltype(values[0])> thread_values[items];
    if (merges) {
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) thread_values[i] = values[source[i]];
    }
    __syncthreads();
    if (merges) {
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) values[first + i] = thread_values[i];
    }
  } else {
    __syncthreads();
  }
  if (merges) {
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) keys[first + i] = thread_keys[i];
  }
  __syncthreads();
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
  sort_thread_runs_in_shared<BlockThreads, ItemsPerThread>(keys, values, count, comp);
  // Whether run `ahead` runs on starts before this run ends (read after a barrier).
  auto starts_before_end = [&](int ahead) {
    const int next = last + 1 + items * (ahead - 1);
    return last < count && next < count && comp(keys[next], keys[last]);
  };
  bool near = __syncthreads_or(starts_before_end(max_rounds + 1)) == 0;
  for (int round = 0; near && round < max_rounds; ++round) {
    if (!__syncthreads_or(starts_before_end(1))) return;
    const int parity = round & 1;
    merge_pair_round<BlockThreads, ItemsPerThread>(keys, values, count, ((tid - parity) & ~1) + parity, items, comp);
  }
  if (near && !__syncthreads_or(starts_before_end(1))) return;
  merge_runs_by_tree<BlockThreads, ItemsPerThread>(keys, values, count, comp);
}

}  // namespace block
}  // namespace mergepath
