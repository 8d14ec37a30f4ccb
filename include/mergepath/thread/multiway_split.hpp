// multiway_split: Merge Path for K sorted sequences. Of the first `rank` elements of their stable
// merge (ties taken from the sequence of lower index first, as merging consecutive runs of one
// array needs), how many come from each sequence.
#pragma once

#include <iterator>
#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {

// The selection works on block representatives, coarse to fine (Varman, Scheufler, Iyer and
// Ricard, 1991). Pad every sequence without end with elements greater than all others, ordered
// among themselves by sequence. At block size g (a power of two) the representatives are every
// g-th element, positions g - 1, 2g - 1, ...; each stands for the g elements of its block, and the
// level keeps the rank / g smallest of them (`taken` of each sequence). The smallest are a prefix
// of the order, so halving g keeps every representative the coarser level kept and drops every
// one it did not, leaving one undecided per sequence (the new one between them): it is kept if it
// is no greater than the largest kept, and a few moves of the prefix's edge then make the count
// rank / (g / 2). At g = 1 the representatives are the elements: the counts are the split.
//
// Each sequence keeps the values of the four representatives around its edge, so that a level
// reads its K new ones, all independent, plus one guess: the largest kept never keeps its new
// representative, and is the one to leave when too many were kept, so the one before it is read
// along. The other moves find their values known. A search through memory thus takes about
// log2(longest) rounds of latency, not the log^2 of nested two-way splits.
template <int K, class It, class Index, class Comp>
class multiway_selection {
  using value_type = std::remove_cv_t<std::remove_reference_t<decltype(*std::declval<It>())>>;

 public:
  MERGEPATH_HD multiway_selection(const It (&seqs)[K], const Index (&counts)[K], Comp comp) : comp_(comp) {
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) seqs_[s] = seqs[s], counts_[s] = counts[s];
  }

  // split[s] = how many of sequence s's elements are among the first `rank` of the merge, for
  // rank in [0, sum of the counts]. On unsorted input the result is unspecified but each split
  // lies in [0, counts[s]], their sum is rank, and only elements inside the sequences are read.
  MERGEPATH_HD void split(Index rank, Index (&split)[K]) const {
    Index longest = 0, total = 0;
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) longest = detail::max_of(longest, counts_[s]), total += counts_[s];
    if (rank >= total) {  // everything (and the case of all sequences empty)
      MERGEPATH_UNROLL
      for (int s = 0; s < K; ++s) split[s] = counts_[s];
      return;
    }
    int shift = 0;  // block = 2^shift
    while ((Index{1} << shift) < longest) ++shift;
    // The coarsest level: one representative per sequence within the longest, rank / block < K kept.
    edge e[K];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) {
      e[s].taken = 0;
      e[s].before = e[s].last = e[s].after = value_type{};
      e[s].next = read(s, (Index{1} << shift) - 1);
      e[s].before_known = false, e[s].after_known = false;
    }
    settle(e, shift, rank >> shift, 0);
    while (shift > 0) {
      // The largest kept representative: everything kept at the finer level is no greater.
      const candidate largest = largest_kept(e, shift);
      --shift;
      // Its sequence's representative before its last, for the likely move below.
      value_type guess{};
      MERGEPATH_UNROLL
      for (int s = 0; s < K; ++s)
        if (s == largest.seq) guess = read(s, ((2 * e[s].taken - 1) << shift) - 1);
      Index kept = 0;
      MERGEPATH_UNROLL
      for (int s = 0; s < K; ++s) {
        // Twice as many representatives per kept block; the new one after them is kept if it is
        // no greater than the largest (the largest's own comes after it).
        const Index at = ((2 * e[s].taken + 1) << shift) - 1;
        const candidate fresh{s, at >= counts_[s], read(s, at)};
        const bool keep = largest.seq >= 0 && largest.seq != s && !before(largest, fresh);
        if (keep) {
          e[s].taken = 2 * e[s].taken + 1;
          e[s].before = e[s].last, e[s].before_known = true;
          e[s].last = fresh.value;
          e[s].after_known = false;
        } else {
          e[s].taken = 2 * e[s].taken;
          e[s].after = e[s].next, e[s].after_known = true;
          e[s].next = fresh.value;
          e[s].before = guess, e[s].before_known = s == largest.seq;
        }
        kept += e[s].taken;
      }
      settle(e, shift, rank >> shift, kept);
    }
    // Sorted input keeps only elements at the finest level (rank < total); unsorted input may
    // keep padding, which is given back to sequences with elements to spare.
    Index deficit = rank;
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) split[s] = detail::min_of(e[s].taken, counts_[s]), deficit -= split[s];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) {
      Index more = detail::min_of(deficit, counts_[s] - split[s]);
      split[s] += more, deficit -= more;
    }
  }

 private:
  // One sequence's edge of the kept prefix at block size 2^shift: `taken` representatives kept;
  // the values of the last kept (position taken * block - 1), the first dropped (next), and of
  // their outer neighbours where known. Padding's values are never read.
  struct edge {
    Index taken;
    value_type before, last, next, after;
    bool before_known, after_known;
  };
  // A representative in the padded order; pad: past its sequence's end.
  struct candidate {
    int seq;  // -1: none
    bool pad;
    value_type value;
  };

  // x before y, for representatives of different sequences: padding after every element and
  // among itself by sequence; equal elements by sequence.
  MERGEPATH_HD bool before(const candidate& x, const candidate& y) const {
    if (x.pad || y.pad) return x.pad && y.pad ? x.seq < y.seq : y.pad;
    if (comp_(x.value, y.value)) return true;
    return !comp_(y.value, x.value) && x.seq < y.seq;
  }

  // The largest kept representative (seq -1 when none is kept).
  MERGEPATH_HD candidate largest_kept(const edge (&e)[K], int shift) const {
    candidate c{-1, false, e[0].last};
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s) {
      const candidate last{s, (e[s].taken << shift) > counts_[s], e[s].last};
      if (e[s].taken > 0 && (c.seq < 0 || before(c, last))) c = last;
    }
    return c;
  }

  // Moves the edge of the kept prefix (block size 2^shift) until `want` are kept: the smallest
  // dropped representative joins, or the largest kept one leaves, one at a time.
  MERGEPATH_HD void settle(edge (&e)[K], int shift, Index want, Index kept) const {
    for (; kept < want; ++kept) {
      candidate c{0, ((e[0].taken + 1) << shift) > counts_[0], e[0].next};
      MERGEPATH_UNROLL
      for (int s = 1; s < K; ++s) {
        const candidate next{s, ((e[s].taken + 1) << shift) > counts_[s], e[s].next};
        if (before(next, c)) c = next;
      }
      MERGEPATH_UNROLL
      for (int s = 0; s < K; ++s) {
        if (s != c.seq) continue;
        const value_type after = e[s].after_known ? e[s].after : read(s, ((e[s].taken + 3) << shift) - 1);
        ++e[s].taken;
        e[s].before = e[s].last, e[s].before_known = true;
        e[s].last = e[s].next;
        e[s].next = after, e[s].after_known = false;
      }
    }
    for (; kept > want; --kept) {
      const candidate c = largest_kept(e, shift);  // kept > want >= 0: some sequence has one
      MERGEPATH_UNROLL
      for (int s = 0; s < K; ++s) {
        if (s != c.seq) continue;
        const value_type before = e[s].before_known ? e[s].before : read(s, ((e[s].taken - 1) << shift) - 1);
        --e[s].taken;
        e[s].after = e[s].next, e[s].after_known = true;
        e[s].next = e[s].last;
        e[s].last = before, e[s].before_known = false;
      }
    }
  }

  // Element `at` of sequence s; padding and positions before the start are not read.
  MERGEPATH_HD value_type read(int s, Index at) const {
    value_type v{};
    MERGEPATH_UNROLL
    for (int t = 0; t < K; ++t)
      if (t == s && at >= 0 && at < counts_[t]) v = seqs_[t][at];
    return v;
  }

  It seqs_[K];
  Index counts_[K];
  Comp comp_;
};

// The split of the first `rank` elements of the stable merge of K sorted sequences: split[s]
// of sequence s (multiway_selection above says how).
template <int K, class It, class Index, class Comp>
MERGEPATH_HD void multiway_split(const It (&seqs)[K], const Index (&counts)[K], Index rank, Index (&split)[K],
                                 Comp comp) {
  multiway_selection<K, It, Index, Comp>(seqs, counts, comp).split(rank, split);
}

}  // namespace mergepath
