// The set operations' serial layer, shared by both backends: the walk std::set_union and its
// siblings make over two sorted multisets, and where to cut that walk into independent shares.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../detail/config.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "binary_search.hpp"
#include "merge_path.hpp"
#include "serial_merge.hpp"
#include "serial_search.hpp"

namespace mergepath {

enum class set_op { union_, intersection, difference, symmetric_difference };

namespace detail {

// Which elements each set operation keeps, at a step of the walk where a's key is smaller
// (a_only), b's is smaller (b_only), or they are equivalent (a pair: a's copy is the one kept).
MERGEPATH_HD constexpr bool keeps_a_only(set_op op) { return op != set_op::intersection; }
MERGEPATH_HD constexpr bool keeps_b_only(set_op op) {
  return op == set_op::union_ || op == set_op::symmetric_difference;
}
MERGEPATH_HD constexpr bool keeps_pair(set_op op) { return op == set_op::union_ || op == set_op::intersection; }

}  // namespace detail

// A point of the set operations' walk: a[0, a) and b[0, b) consumed.
template <class Index>
struct set_split {
  Index a, b;
};

// The point of the walk (below) that has consumed diag elements, or diag - 1 where a pair of
// equivalent keys straddles diag, given merge_path's (lower bound) split i there. The walk pairs
// the k-th copy of a key in a with its k-th copy in b, and its order differs from a stable
// merge's only inside a run of equivalent keys; so the merge path's split at diag is moved within
// the run it cuts: of the t copies it has consumed there (m in a, n in b in all), the walk has
// consumed t / 2 pairs while t <= 2 min(m, n), else all min(m, n) pairs and t - 2 min(m, n) of
// the longer side's extra copies. The walk from such a point depends on nothing before it (it
// looks only at a[i] and b[j]), so shares cut at these points are independent. For any data and
// any i in merge_path's range the result lies in [0, a_count] x [0, b_count].
template <class AIt, class BIt, class Index, class Comp>
MERGEPATH_HD set_split<Index> set_path_from_merge_path(AIt a, Index a_count, BIt b, Index b_count, Index diag,
                                                       Index i, Comp comp) {
  const Index j = diag - i;
  const bool next_a = i < a_count && (j >= b_count || !comp(b[j], a[i]));
  if (!next_a && j >= b_count) return {i, j};  // all consumed
  const auto x = next_a ? a[i] : b[j];         // the key of the run the split may cut
  const Index a_lo = detail::run_start_before(a, i, x, comp), b_lo = detail::run_start_before(b, j, x, comp);
  const Index t = (i - a_lo) + (j - b_lo);
  if (t == 0) return {i, j};  // the split cuts no run: the runs' ends are not needed
  const Index m = detail::run_end_after(a, i, a_count, x, comp) - a_lo;
  const Index n = detail::run_end_after(b, j, b_count, x, comp) - b_lo;
  const Index pairs = detail::min_of(m, n);
  if (t <= 2 * pairs) return {a_lo + t / 2, b_lo + t / 2};
  return m > n ? set_split<Index>{a_lo + (t - n), b_lo + n} : set_split<Index>{a_lo + m, b_lo + (t - m)};
}

// The same point, merge_path searched here (the GPU's partition pass brings its own).
template <class AIt, class BIt, class Index, class Comp>
MERGEPATH_HD set_split<Index> set_path(AIt a, Index a_count, BIt b, Index b_count, Index diag, Comp comp) {
  return set_path_from_merge_path(a, a_count, b, b_count, diag,
                                  merge_path<bounds::lower>(a, a_count, b, b_count, diag, comp), comp);
}

// A CPU thread's share of the walk of std::set_union and its siblings: a[a, a_end) against
// b[b, b_end), kept elements written to out[out, out_end). The walk consumes a smaller key alone
// and equivalent keys as a pair (a's copy is the one kept); set_walk_kept says how many it keeps.
template <class Index>
struct set_walk {
  Index a, a_end, b, b_end, out, out_end;
};

namespace detail {

// How many elements op keeps from a walk that met `pairs` pairs before either side ran out (the
// rest of the other side is all a_only or all b_only).
template <set_op Op, class Index>
constexpr Index set_walk_kept(const set_walk<Index>& w, Index pairs) {
  const Index a_left = w.a_end - w.a, b_left = w.b_end - w.b;
  if constexpr (Op == set_op::union_) return a_left + b_left - pairs;
  if constexpr (Op == set_op::intersection) return pairs;
  if constexpr (Op == set_op::difference) return a_left - pairs;
  if constexpr (Op == set_op::symmetric_difference) return a_left + b_left - 2 * pairs;
}

// Whether a step of the walk consumes b's key alone, given comp(a, b) and comp(b, a). Where a
// comparator that is not a strict weak order (<=, always true) says both, a's goes first: a step
// that consumed neither would never end the walk. Bitwise, so that the step has no branch.
constexpr bool set_walk_b_first(bool a_first, bool b_before_a) { return b_before_a & !a_first; }

}  // namespace detail

// Sets each walk's out_end to out + the number of elements op keeps from it. The walks are
// stepped together in one loop, as serial_merge_chained steps its merges: a step waits for the
// loads of the step before it, and a core overlaps the walks' waits. Each step is arithmetic, not
// branches (on random keys a branch mispredicts half the time).
template <set_op Op, int Walks, class AIt, class BIt, class Index, class Comp>
void count_set_walks(AIt a, BIt b, set_walk<Index> (&walks)[Walks], Comp comp) {
  set_walk<Index> moving[Walks];  // out counts the walk's pairs
  for (int w = 0; w < Walks; ++w) moving[w] = {walks[w].a, walks[w].a_end, walks[w].b, walks[w].b_end, 0, 0};
  auto step = [&](set_walk<Index>& w) {
    const bool a_first = comp(a[w.a], b[w.b]), b_first = detail::set_walk_b_first(a_first, comp(b[w.b], a[w.a]));
    w.out += !(a_first || b_first);
    w.a += !b_first;
    w.b += !a_first;
  };
  detail::step_merge_chains(moving, step, [&](set_walk<Index>& w) {
    while (w.a < w.a_end && w.b < w.b_end) step(w);
  });
  for (int w = 0; w < Walks; ++w) walks[w].out_end = walks[w].out + detail::set_walk_kept<Op>(walks[w], moving[w].out);
}

// Writes what op keeps of each walk to out_keys[out, out_end) (out_end from count_set_walks),
// with its value where out_vals is not nullptr; the same elements std::set_union and its
// siblings keep, in their order. Every step stores its candidate at the walk's next output slot,
// which a kept element then claims; a walk stops once its output is full, so no store lands
// outside its range, whatever the data.
template <set_op Op, int Walks, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Index, class Comp>
void write_set_walks(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, OutKeys out_keys, OutVals out_vals,
                     set_walk<Index> (&walks)[Walks], Comp comp) {
  constexpr bool with_values = !std::is_same_v<OutVals, std::nullptr_t>;
  auto step = [&](set_walk<Index>& w) {
    const auto x = a_keys[w.a];
    const auto y = b_keys[w.b];
    const bool a_first = comp(x, y), b_first = detail::set_walk_b_first(a_first, comp(y, x));
    // Equivalent keys: a's copy for union and intersection; symmetric difference keeps neither.
    const bool from_b = Op == set_op::union_ ? b_first : Op == set_op::symmetric_difference ? !a_first : false;
    out_keys[w.out] = from_b ? y : x;
    if constexpr (with_values) out_vals[w.out] = from_b ? b_vals[w.b] : a_vals[w.a];
    const bool paired = !(a_first || b_first);
    w.out += Op == set_op::union_         ? true
             : Op == set_op::intersection ? paired
             : Op == set_op::difference   ? a_first
                                          : !paired;
    w.a += !b_first;
    w.b += !a_first;
  };
  detail::step_merge_chains(
      walks, step,
      [&](set_walk<Index>& w) {
        while (w.out < w.out_end && w.a < w.a_end && w.b < w.b_end) step(w);
        // One side is done: the other's rest is kept or not as a whole.
        if (detail::keeps_a_only(Op))
          for (; w.out < w.out_end && w.a < w.a_end; ++w.a, ++w.out) {
            out_keys[w.out] = a_keys[w.a];
            if constexpr (with_values) out_vals[w.out] = a_vals[w.a];
          }
        if (detail::keeps_b_only(Op))
          for (; w.out < w.out_end && w.b < w.b_end; ++w.b, ++w.out) {
            out_keys[w.out] = b_keys[w.b];
            if constexpr (with_values) out_vals[w.out] = b_vals[w.b];
          }
        // Slots left only where comp answered otherwise than in count_set_walks (a random
        // comparator): an input element each, never memory left unwritten.
        for (; w.out < w.out_end; ++w.out) {
          const bool from_a = w.a_end > 0;  // a walk that keeps anything has an element
          out_keys[w.out] = from_a ? a_keys[w.a_end - 1] : b_keys[w.b_end - 1];
          if constexpr (with_values) out_vals[w.out] = from_a ? a_vals[w.a_end - 1] : b_vals[w.b_end - 1];
        }
      },
      [](const set_walk<Index>& w) { return w.out_end - w.out; });  // no store past the walk's output
}

// The order a share's merge takes equivalent keys in (below): b's copies first for intersection
// and difference, whose output is a's copies, so that a's copy of rank r comes out after every
// copy b has and knows on the spot whether b holds an r-th; a's first for union, whose extras
// from b then know a's count. Symmetric difference keeps extras of both sides, so one side looks
// ahead either way.
MERGEPATH_HD constexpr bounds set_merge_order(set_op op) {
  return op == set_op::intersection || op == set_op::difference ? bounds::upper : bounds::lower;
}

// The same walk seen as a stable merge of a and b, ties ordered as set_merge_order(Op) says. A run
// of equivalent keys then comes out as one side's copies, then the other's, and the walk pairs
// a's r-th copy with b's r-th. So a step knows its fate from where its run began, run_offset =
// (a's run start) - (b's run start), set at every key change: with a first, b's copy of rank r
// is an extra while r >= m (i - j <= run_offset); with b first, a's copy of rank r has a partner
// while r < n (i - j < run_offset). Symmetric difference (a first) asks for a's copy whether
// b[i - run_offset] exists and is equivalent (one look-ahead load). Kept elements come out in the
// walk's order. This makes a GPU thread's share a plain merge (merge_path<set_merge_order(Op)>
// splits, no run searches but one at its start), cheaper a step than the walk's two comparisons.
//
// Merges Count steps of the runs keys[a_begin, a_end) and keys[b_begin, b_end) (two runs of one
// array, a GPU tile in shared memory, a_end <= b_begin) from positions (i, j) into registers:
// out[k] the step's key, source[k] its position in keys; returns the kept steps as bits. One array
// makes each step's next load one select of a position (serial_merge_n's way), and i - j differs
// from the runs' own offsets only by a constant, which run_offset carries. The runs must begin at
// a set_path point of the whole inputs (a GPU tile's split), where both sides have consumed the
// same number of a cut run's pairs, so that ranks counted from there pair as the whole walk pairs
// them. Reads keys[a_begin, a_end + Count] and keys[b_begin, b_end] (padding past b's run
// included), whatever the data.
template <set_op Op, int Count, class T, class Comp>
MERGEPATH_HD unsigned set_operation_merge_n(const T* keys, int a_begin, int a_end, int b_begin, int b_end, int i, int j,
                                            T (&out)[Count], int (&source)[Count], Comp comp) {
  static_assert(Count <= 32, "set_operation_merge_n: the kept steps fit a 32-bit mask");
  constexpr bounds order = set_merge_order(Op);
  T a_key = keys[i], b_key = keys[j];
  [[maybe_unused]] const int b_last = detail::max_of(b_end - 1, b_begin);  // symmetric difference's look-ahead
  // The run the first step lies in may have begun before (i, j).
  const bool first_a = j >= b_end || (i < a_end && takes_a<order>(a_key, b_key, comp));
  const T first = first_a ? a_key : b_key;  // a copy: a reference would put both keys in local memory
  int run_offset = (a_begin + detail::run_start_before(keys + a_begin, i - a_begin, first, comp)) -
                   (b_begin + detail::run_start_before(keys + b_begin, j - b_begin, first, comp));
  unsigned kept = 0;
  const int start = i + j;  // each step moves one of i and j: j follows from i and the step
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    // a moves past a_end only once b is exhausted; b never moves past b_end.
    const bool take_a = j >= b_end || (i < a_end && takes_a<order>(a_key, b_key, comp));
    const T key = take_a ? a_key : b_key;
    if (k > 0 && comp(out[k - 1], key)) run_offset = i - j;  // a new run starts here
    bool keep;
    if constexpr (Op == set_op::union_) {
      keep = take_a || i - j <= run_offset;
    } else if constexpr (Op == set_op::intersection) {
      keep = take_a && i - j < run_offset;
    } else if constexpr (Op == set_op::difference) {
      keep = take_a && i - j >= run_offset;
    } else {
      const int partner = i - run_offset;  // b's copy of a_key's rank, if any
      const bool paired = partner >= b_begin && partner < b_end &&
                          !comp(a_key, keys[detail::min_of(detail::max_of(partner, b_begin), b_last)]);
      const bool a_keeps = paired ? detail::keeps_pair(Op) : detail::keeps_a_only(Op);
      keep = take_a ? a_keeps : detail::keeps_b_only(Op) && i - j <= run_offset;
    }
    out[k] = key;
    const int taken = take_a ? i : j;
    source[k] = taken;
    kept |= static_cast<unsigned>(keep) << k;
    // One load a step, at the taken run's next slot (as serial_merge_n).
    const T next = keys[taken + 1];
    i += take_a;
    j = start + k + 1 - i;
    a_key = take_a ? next : a_key;
    b_key = take_a ? b_key : next;
  }
  return kept;
}

}  // namespace mergepath

namespace mergepath {
namespace detail {

// Capacity a set operation's output needs: a_count + b_count for union and symmetric difference,
// a_count for intersection and difference.
MERGEPATH_HD constexpr index_t set_output_capacity(set_op op, index_t a_count, index_t b_count) {
  return keeps_b_only(op) ? a_count + b_count : a_count;
}

// The argument checks of every set operation: non-negative counts, no null pointer with elements;
// values (not nullptr) only for the _by_key forms.
template <set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals>
void require_set_operation_ranges(const char* algorithm, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys,
                                  BVals b_vals, index_t b_count, OutKeys out_keys, OutVals out_vals) {
  require_range(algorithm, "a", a_keys, a_count);
  require_range(algorithm, "b", b_keys, b_count);
  const index_t capacity = set_output_capacity(Op, a_count, b_count);
  require_range(algorithm, "out", out_keys, capacity);
  if constexpr (!std::is_same_v<OutVals, std::nullptr_t>) {
    require_range(algorithm, "a_vals", a_vals, a_count);
    require_range(algorithm, "b_vals", b_vals, b_count);
    require_range(algorithm, "out_vals", out_vals, capacity);
  }
}

}  // namespace detail
}  // namespace mergepath
