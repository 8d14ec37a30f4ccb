// The segmented forms of merge_path and serial_merge_n (moderngpu's Segmented Sort and Locality
// Sort): merging two sorted runs whose keys belong to segments, where only the one segment that
// spans the runs' interface mixes.
//
// Runs a and b are neighbours in one array. Of a, the keys before its last segment head stay put
// (a_active_begin of them); of b, the keys from its first segment head on stay put (those after
// b_active_end). Only a[a_active_begin, a_count) and b[0, b_active_end), the two parts of the
// segment across the interface, interleave. The merged output is therefore
//   a[0, a_active_begin) ++ merge(a[a_active_begin, a_count), b[0, b_active_end)) ++ b[b_active_end, b_count)
// and every key outside the active segment keeps its position. Shared by both backends.
#pragma once

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "merge_path.hpp"

namespace mergepath {

// Where the first `diag` outputs of the segmented merge split between a and b: returns i such that
// they are a[0, i) and b[0, diag - i). Only the active segment is searched; a diagonal outside
// it answers at once. Requires 0 <= a_active_begin <= a_count and 0 <= b_active_end <= b_count.
template <class AIt, class BIt, class Index, class Comp>
MERGEPATH_HD Index segmented_merge_path(AIt a, Index a_count, BIt b, Index b_count, Index a_active_begin,
                                        Index b_active_end, Index diag, Comp comp) {
  (void)b_count;
  if (diag <= a_active_begin) return diag;                  // inside a's settled prefix
  if (diag >= a_count + b_active_end) return a_count;       // inside b's settled suffix
  return a_active_begin + merge_path(a + a_active_begin, a_count - a_active_begin, b, b_active_end,
                                     diag - a_active_begin, comp);
}

// serial_merge_n for the segmented merge: the next Count outputs of merging keys[a_begin, a_end)
// with keys[b_begin, b_end) (two runs of one array), where a's keys before a_active_begin and b's
// keys from b_active_end on are outside the active segment (all positions are in `keys`).
// out[k] is the key, source[k] its position. Reads as serial_merge_n does: keys[a_begin,
// a_end + Count] and keys[b_begin, b_end + Count], so Count + 1 readable slots past b_end suffice.
template <int Count, class It, class T, class Comp>
MERGEPATH_HD int serial_segmented_merge_n(It keys, int a_begin, int a_end, int b_begin, int b_end,
                                           int a_active_begin, int b_active_end, T (&out)[Count],
                                           int (&source)[Count], Comp comp) {
  (void)b_end;
  T a_key = keys[a_begin];
  T b_key = keys[b_begin];
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    // a's settled prefix goes first; once b leaves the active segment, a's rest goes before it.
    bool take_a = a_begin < a_end && (a_begin < a_active_begin || b_begin >= b_active_end || !comp(b_key, a_key));
    out[k] = take_a ? a_key : b_key;
    const int taken = take_a ? a_begin : b_begin;
    source[k] = taken;
    const T next = keys[taken + 1];  // one load a step, as serial_merge_n
    a_begin += take_a;
    b_begin += !take_a;
    a_key = take_a ? next : a_key;
    b_key = take_a ? b_key : next;
  }
  return a_begin;  // the a position after the Count steps
}

// Moves (a_begin, b_begin) `steps` outputs along serial_segmented_merge_n's walk, producing
// nothing (serial_merge_advance for the segmented merge).
template <class It, class Comp>
MERGEPATH_HD void serial_segmented_merge_advance(It keys, int& a_begin, int a_end, int& b_begin, int a_active_begin,
                                                 int b_active_end, int steps, Comp comp) {
  for (; steps > 0; --steps) {
    const bool take_a = a_begin < a_end && (a_begin < a_active_begin || b_begin >= b_active_end ||
                                            !comp(keys[b_begin], keys[a_begin]));
    a_begin += take_a;
    b_begin += !take_a;
  }
}

}  // namespace mergepath
