// merge_path: the co-rank search under every algorithm here (the co-rank of Hwu, Kirk and El
// Hajj; the Merge Path of Odeh et al. and moderngpu).
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../functional.hpp"

namespace mergepath {

// merge_path (below) searched only in [begin, end), an interval of its whole one known to hold
// the answer (from samples, or a neighbouring split); returns a point of [begin, end].
template <bounds Bounds = bounds::lower, int Probes = 1, class AIt, class BIt, class Index, class Comp>
MERGEPATH_HD Index merge_path_within(AIt a, BIt b, Index diag, Index begin, Index end, Comp comp) {
  static_assert(Probes >= 1, "merge_path needs at least one probe per step");
  while (begin < end) {
    Index length = end - begin;
    bool a_first[Probes];
    Index mid[Probes];
    MERGEPATH_UNROLL
    for (int p = 0; p < Probes; ++p) {
      // in [begin, end); unsigned, as length > 0, so that the division is a shift
      mid[p] = begin + static_cast<Index>(static_cast<std::make_unsigned_t<Index>>(length * (p + 1)) / (Probes + 1));
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
  return merge_path_within<Bounds, Probes>(a, b, diag, detail::max_of<Index>(0, diag - b_count),
                                           detail::min_of<Index>(diag, a_count), comp);
}

// An interval [begin, end] of a-positions.
template <class Index>
struct merge_path_interval {
  Index begin, end;
};

// Narrows merge_path's interval for `diag` using only samples of a and b, every 2^shift-th
// element (a_samples[j] = a[j << shift] for j < ceil(a_count / 2^shift), b_samples alike), so
// that a search through slow memory needs 2^(shift + 1) positions instead of min(diag, a_count).
// a[j << shift] surely comes out before b[x] when it does before b's sample at or below x, as
// b is sorted; a binary search over the samples of a finds the first j where that is not sure,
// and then the split lies after a's sample j - 1 and, one sample further on, a has surely
// passed b, so it lies at or before a's sample j + 1. For sorted input merge_path's answer lies
// in the result; for any input the result lies inside merge_path's whole interval.
template <bounds Bounds = bounds::lower, class ASamples, class BSamples, class Index, class Comp>
MERGEPATH_HD merge_path_interval<Index> merge_path_from_samples(ASamples a_samples, Index a_count, BSamples b_samples,
                                                                Index b_count, Index diag, int shift, Comp comp) {
  const Index lo = detail::max_of<Index>(0, diag - b_count);
  const Index hi = detail::min_of<Index>(diag, a_count);
  const Index stride = Index{1} << shift;
  // The samples of a inside [lo, hi), whose b counterparts diag - 1 - i lie in [0, b_count).
  const Index j_begin = (lo + stride - 1) >> shift;
  const Index j_end = (hi + stride - 1) >> shift;
  auto surely_a_first = [&](Index j) {
    Index b_sample = (diag - 1 - (j << shift)) >> shift;
    return Bounds == bounds::lower ? !comp(b_samples[b_sample], a_samples[j]) : comp(a_samples[j], b_samples[b_sample]);
  };
  Index first = j_begin;  // the first sample not surely first
  for (Index count = j_end - j_begin; count > 0;) {
    Index half = count / 2;
    if (surely_a_first(first + half)) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return {first > j_begin ? ((first - 1) << shift) + 1 : lo, first + 1 < j_end ? (first + 1) << shift : hi};
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
