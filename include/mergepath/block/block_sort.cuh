// Sort of one tile held in shared memory: each thread sorts ItemsPerThread keys in registers
// with sort_network (sort_network_unstable where equal keys are identical), then the block
// merges the sorted runs pairwise, doubling them, until the whole tile is one run (seed 003's
// blocksort).
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

// Sorts keys[0, count) (count <= BlockThreads * ItemsPerThread) in shared memory, stably, moving
// values[i] with keys[i] (Values = std::nullptr_t for keys only). Both buffers hold the tile plus
// sort_padding slots. Starts and ends with a barrier: the tile must be visible to the block on
// entry, and it is sorted and visible on return.
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ void sort_tile_in_shared(Key* keys, Values values, int count, Comp comp) {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the block merges runs pairwise: a power of two threads");
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int first = items * static_cast<int>(threadIdx.x);
  auto store_blocked = [&](const auto& from, auto* to) {
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) to[first + i] = from[i];
  };

  __syncthreads();
  Key thread_keys[items];
  MERGEPATH_UNROLL
  for (int i = 0; i < items; ++i) thread_keys[i] = keys[first + i];
  if constexpr (has_values) {
    std::remove_reference_t<decltype(values[0])> thread_values[items];
    MERGEPATH_UNROLL
    for (int i = 0; i < items; ++i) thread_values[i] = values[first + i];
    sort_network(thread_keys, thread_values, count - first, comp);
    store_blocked(thread_values, values);
  } else if constexpr (equal_keys_are_identical<Key, Comp>::value) {
    sort_network_unstable(thread_keys, count - first, comp);  // the same output, in fewer steps
  } else {
    sort_network(thread_keys, count - first, comp);
  }
  store_blocked(thread_keys, keys);
  __syncthreads();

  for (int pair_threads = 2; pair_threads <= BlockThreads; pair_threads *= 2) {
    int source[items];
    merge_runs_in_shared(keys, count, pair_threads, thread_keys, source, comp);
    if constexpr (has_values) {
      std::remove_reference_t<decltype(values[0])> thread_values[items];
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) thread_values[i] = values[source[i]];
      __syncthreads();
      store_blocked(thread_values, values);
    } else {
      __syncthreads();
    }
    store_blocked(thread_keys, keys);
    __syncthreads();
  }
}

}  // namespace block
}  // namespace mergepath
