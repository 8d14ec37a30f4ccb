// warp_merge_path: merge_path run by a whole warp, 32 probes per step, for searches through
// global memory where every step costs a memory latency.
#pragma once

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"

namespace mergepath {
namespace block {

constexpr int warp_lanes = 32;

// merge_path's answer for `diag`, searched only in [begin, end): the caller passes an interval
// known to hold the split (the whole valid range, or a window from a neighbouring split).
// All 32 lanes of the warp call it with the same arguments and all get the answer. Each step
// every lane tests one of 32 evenly spaced points and the warp keeps the part between the last
// "a first" and the first "b first", so the interval shrinks 33-fold: a 2^26 range takes 6 steps
// of 2 loads per lane, a 6k window 3. For any data only a[begin, end) and
// b[diag - end, diag - begin) are read, and the answer lies in [begin, end].
template <bounds Bounds = bounds::lower, class AIt, class BIt, class Comp>
__device__ index_t warp_merge_path(AIt a, BIt b, index_t diag, index_t begin, index_t end, Comp comp) {
  const int lane = static_cast<int>(threadIdx.x % warp_lanes);
  while (begin < end) {
    index_t length = end - begin;
    index_t mid = begin + length * (lane + 1) / (warp_lanes + 1);  // in [begin, end), not decreasing in lane
    bool a_first = Bounds == bounds::lower ? !comp(b[diag - 1 - mid], a[mid]) : comp(a[mid], b[diag - 1 - mid]);
    unsigned b_first_lanes = __ballot_sync(~0u, !a_first);
    // Sorted input answers "a first" up to some lane and "b first" after it; take the first
    // "b first" so that unsorted input still narrows the interval.
    int first_b = b_first_lanes ? __ffs(b_first_lanes) - 1 : warp_lanes;
    index_t last_a_mid = __shfl_sync(~0u, mid, detail::max_of(first_b - 1, 0));
    index_t first_b_mid = __shfl_sync(~0u, mid, detail::min_of(first_b, warp_lanes - 1));
    index_t next_begin = first_b > 0 ? last_a_mid + 1 : begin;
    index_t next_end = first_b < warp_lanes ? first_b_mid : end;
    begin = next_begin;
    end = detail::max_of(next_end, next_begin);
  }
  return begin;
}

// The whole interval merge_path searches for `diag`.
__device__ inline index_t merge_path_begin(index_t b_count, index_t diag) {
  return detail::max_of<index_t>(0, diag - b_count);
}
__device__ inline index_t merge_path_end(index_t a_count, index_t diag) { return detail::min_of(diag, a_count); }

// Where a's run of the tile between output diagonals diag0 < diag1 begins and ends.
struct tile_splits {
  index_t begin, end;
};

// The tile's splits without a partition pass: warps 0 and 1 search the whole input side by side
// (warp 0 does both in a one-warp block) and every thread of the block gets the answer. The end
// is clamped against the begin, so the tile is a valid pair of ranges even for unsorted input.
template <int BlockThreads, bounds Bounds, class AIt, class BIt, class Comp>
__device__ tile_splits find_tile_splits(AIt a, index_t a_count, BIt b, index_t b_count, index_t diag0, index_t diag1,
                                        Comp comp) {
  static_assert(BlockThreads % warp_lanes == 0, "the searches take whole warps");
  constexpr int second_searcher = BlockThreads >= 2 * warp_lanes ? 1 : 0;
  __shared__ index_t found[2];
  int warp = static_cast<int>(threadIdx.x) / warp_lanes;
  bool lane_zero = threadIdx.x % warp_lanes == 0;
  auto search = [&](index_t diag) {
    return warp_merge_path<Bounds>(a, b, diag, merge_path_begin(b_count, diag), merge_path_end(a_count, diag), comp);
  };
  if (warp == 0) {
    index_t split = search(diag0);
    if (lane_zero) found[0] = split;
  }
  if (warp == second_searcher) {
    index_t split = search(diag1);
    if (lane_zero) found[1] = split;
  }
  __syncthreads();
  index_t begin = found[0];
  return {begin, clamp_next_split(begin, found[1], diag0, diag1)};
}

}  // namespace block
}  // namespace mergepath
