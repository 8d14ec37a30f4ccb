// Segmented sort of one tile held in shared memory (the segmented blocksort of moderngpu's
// Segmented Sort and Locality Sort): each thread sorts its keys with sort_network_segmented, then
// the block merges the runs pairwise as sort_tile_in_shared does, but each merge is the segmented
// one: only the segment across the two runs' interface mixes. A binary tree of run heads (each
// run's first and last segment head) says where that segment lies, so the head flags are read once,
// by the network.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../detail/config.hpp"
#include "../thread/segmented_merge.hpp"
#include "../thread/sorting_network.hpp"
#include "block_sort.cuh"
#include "slice_check.cuh"
#include "warp_reduce.cuh"

namespace mergepath {
namespace block {

// The first and last segment head of a run, as positions in its tile; {no_head, -1} when the run
// holds none (all of it continues the segment of an earlier run).
struct run_heads {
  static constexpr int no_head = INT_MAX;
  int first = no_head, last = -1;

  __device__ run_heads joined(const run_heads& later) const {
    return {detail::min_of(first, later.first), detail::max_of(last, later.last)};
  }
};

// Sorts each segment of keys[0, count) (count <= BlockThreads * ItemsPerThread) in shared memory,
// stably, moving values[i] with keys[i] (Values = std::nullptr_t for keys only). thread_heads
// is this thread's head mask: bit j marks key ItemsPerThread * threadIdx.x + j as a segment head.
// heads_tree holds BlockThreads run_heads. Both key and value buffers hold the tile plus
// sort_padding slots. Starts and ends with a barrier; returns the tile's run_heads.
//
// Keys outside the active segment of a merge keep their places, so a thread whose outputs all
// lie outside it neither merges nor stores: where segments are short, most threads of the later
// merges sit idle and shared-memory traffic falls with them (the short-segment fast path).
template <int BlockThreads, int ItemsPerThread, class Key, class Values, class Comp>
__device__ run_heads sort_segmented_tile_in_shared(Key* keys, Values values, int count, std::uint32_t thread_heads,
                                                   run_heads* heads_tree, Comp comp) {
  static_assert((BlockThreads & (BlockThreads - 1)) == 0, "the block merges runs pairwise: a power of two threads");
  constexpr bool has_values = !std::is_same_v<Values, std::nullptr_t>;
  constexpr int items = ItemsPerThread;
  const int tid = static_cast<int>(threadIdx.x);
  const int first = items * tid;
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
    sort_network_segmented(thread_keys, thread_values, thread_heads, count - first, comp);
    store_blocked(thread_values, values);
  } else {
    sort_network_segmented(thread_keys, thread_heads, count - first, comp);
  }
  store_blocked(thread_keys, keys);
  run_heads mine;
  if (thread_heads) mine = {first + __ffs(thread_heads) - 1, first + 31 - __clz(thread_heads)};
  heads_tree[tid] = mine;
  __syncthreads();

  // One segmented merge of runs a (at a0) and b (at a0 + width) with the given heads: this
  // thread's outputs into thread_keys (and values), where they lie in the active segment; the
  // others keep their places and are not touched. Ends with the barrier before the next reads.
  auto merge_runs = [&](int a0, int width, const run_heads& a_heads, const run_heads& b_heads) {
    const int a_count = detail::min_of(detail::max_of(count - a0, 0), width);
    const int b_count = detail::min_of(detail::max_of(count - a0 - width, 0), width);
    // The active segment: from a's last head (all of a if it has none) to b's first head.
    const int a_active_begin = a_heads.last < 0 ? 0 : a_heads.last - a0;
    const int b_active_end = detail::min_of(b_heads.first - (a0 + width), b_count);
    const int diag = first - a0;
    const bool active = a0 >= 0 && b_active_end > 0 && first < count && diag < a_count + b_active_end &&
                        diag + items > a_active_begin;
    int source[items];
    int start = 0, walked_to = 0;
    if (active) {
      int split = segmented_merge_path(keys + a0, a_count, keys + a0 + width, b_count, a_active_begin, b_active_end,
                                       diag, comp);
      start = a0 + split;
      walked_to = serial_segmented_merge_n<items>(keys, start, a0 + a_count, a0 + width + diag - split,
                                                  a0 + width + b_count, a0 + a_active_begin,
                                                  a0 + width + b_active_end, thread_keys, source, comp);
    }
    if constexpr (!order_is_trusted<Key, Comp>) {
      if (slices_disagree<BlockThreads>(start, walked_to, active && diag + items < a_count + b_active_end) && active) {
        int a = a0, b = a0 + width;
        serial_segmented_merge_advance(keys, a, a0 + a_count, b, a0 + a_active_begin, a0 + width + b_active_end, diag,
                                       comp);
        serial_segmented_merge_n<items>(keys, a, a0 + a_count, b, a0 + width + b_count, a0 + a_active_begin,
                                        a0 + width + b_active_end, thread_keys, source, comp);
      }
    }
    if constexpr (has_values) {
      std::remove_reference_t<decltype(values[0])> thread_values[items];
      if (active) {
        MERGEPATH_UNROLL
        for (int i = 0; i < items; ++i) thread_values[i] = values[source[i]];
      }
      __syncthreads();
      if (active) store_blocked(thread_values, values);
    } else {
      __syncthreads();
    }
    if (active) store_blocked(thread_keys, keys);
  };

  // Short segments: when no segment spans more than max_fast_rounds runs, odd-even transposition
  // over the runs (merge runs 2p with 2p + 1, then 2p + 1 with 2p + 2, ...) sorts every segment in
  // as many rounds as the runs it spans (fewer than the log2(BlockThreads) rounds of the tree).
  // A run past the first with no head lies inside a segment that spans the runs on both sides.
  constexpr int max_fast_rounds = 4;
  auto headless = [&](int run) { return run >= 1 && run < BlockThreads && items * run < count && heads_tree[run].last < 0; };
  const bool spans_3 = __syncthreads_or(headless(tid));
  const bool spans_4 = __syncthreads_or(headless(tid) && headless(tid + 1));
  const bool spans_5 = __syncthreads_or(headless(tid) && headless(tid + 1) && headless(tid + 2));
  if (!spans_5) {
    const int rounds = !spans_3 ? 2 : !spans_4 ? 3 : max_fast_rounds;
    for (int round = 0; round < rounds; ++round) {
      const int parity = round & 1;
      const int a_run = ((tid - parity) & ~1) + parity;  // the even (or odd) pair this thread's run is in
      const bool has_b = a_run + 1 < BlockThreads;
      merge_runs(a_run >= 0 ? a_run * items : -1, items, heads_tree[detail::max_of(a_run, 0)],
                 has_b ? heads_tree[a_run + 1] : run_heads{});
      __syncthreads();
    }
    // The tile's heads: the first and last over all runs.
    const run_heads warp_heads{warp_min(mine.first), warp_max(mine.last)};
    if (tid % 32 == 0) heads_tree[tid / 32] = warp_heads;
    __syncthreads();
    if (tid == 0)
      for (int w = 1; w < BlockThreads / 32; ++w) heads_tree[0] = heads_tree[0].joined(heads_tree[w]);
    __syncthreads();
    return heads_tree[0];
  }

  // Otherwise the tree: rounds merge runs pairwise, doubling them, and join their heads.
  for (int level = 0, width = items; width < BlockThreads * items; ++level, width *= 2) {
    const int pair = tid >> (level + 1);
    const run_heads a_heads = heads_tree[2 * pair];
    const run_heads b_heads = heads_tree[2 * pair + 1];
    merge_runs(pair * 2 * width, width, a_heads, b_heads);
    if (first == pair * 2 * width) heads_tree[pair] = a_heads.joined(b_heads);  // all read the tree before merge_runs' barrier
    __syncthreads();
  }
  return heads_tree[0];
}

}  // namespace block
}  // namespace mergepath
