// merge_path: the co-rank search under every algorithm here (seeds 001/002: co-rank; 000/003: MergePath).
#pragma once

#include "../detail/config.hpp"
#include "../functional.hpp"

namespace mergepath {

// Splits the first `diag` outputs of merging a[0, a_count) and b[0, b_count): returns i such
// that merging a[0, i) with b[0, diag - i) gives exactly those outputs. With bounds::lower,
// ties take a first (a stable merge); with bounds::upper, ties take b first.
// Each step tests Probes evenly spaced points of the interval still open (their loads are
// independent, so they are in flight together) and keeps one of its Probes + 1 parts:
// Probes = 1 is binary search, O(log n) steps; a search through global memory, where each step
// costs a memory latency, takes fewer, wider steps (Probes = 3 halves their number).
// For any data, sorted or not, the result lies in [max(0, diag - b_count), min(diag, a_count)]
// and only a[0, a_count) and b[0, b_count) are read.
template <bounds Bounds = bounds::lower, int Probes = 1, class AIt, class BIt, class Index, class Comp>
MERGEPATH_HD Index merge_path(AIt a, Index a_count, BIt b, Index b_count, Index diag, Comp comp) {
  static_assert(Probes >= 1, "merge_path needs at least one probe per step");
  Index begin = detail::max_of<Index>(0, diag - b_count);
  Index end = detail::min_of<Index>(diag, a_count);
  while (begin < end) {
    Index length = end - begin;
    bool a_first[Probes];
    Index mid[Probes];
    MERGEPATH_UNROLL
    for (int p = 0; p < Probes; ++p) {
      mid[p] = begin + length * (p + 1) / (Probes + 1);  // in [begin, end)
      // Does a[mid] come out before b[diag - 1 - mid]? Then the split lies after mid.
      a_first[p] =
          Bounds == bounds::lower ? !comp(b[diag - 1 - mid[p]], a[mid[p]]) : comp(a[mid[p]], b[diag - 1 - mid[p]]);
    }
    Index next_begin = begin, next_end = end;
    MERGEPATH_UNROLL
    for (int p = 0; p < Probes; ++p)
      if (a_first[p]) next_begin = mid[p] + 1;
    MERGEPATH_UNROLL
    for (int p = Probes - 1; p >= 0; --p)
      if (!a_first[p]) next_end = mid[p];
    // Sorted input answers monotonically; unsorted input may not, and then the search stops
    // at a point inside the interval.
    begin = next_begin;
    end = detail::max_of(next_end, next_begin);
  }
  return begin;
}

}  // namespace mergepath

namespace mergepath {

// For unsorted input the splits of two neighbouring diagonals need not be monotone. Given the
// split a0 at diag0 and a1 at diag1 (diag0 <= diag1), returns a1 clamped so that a[a0, a1)
// and b[diag0 - a0, diag1 - a1) are both valid, non-negative ranges. Sorted input is unchanged.
template <class Index>
MERGEPATH_HD Index clamp_next_split(Index a0, Index a1, Index diag0, Index diag1) {
  return detail::min_of(detail::max_of(a1, a0), a0 + (diag1 - diag0));
}

}  // namespace mergepath
