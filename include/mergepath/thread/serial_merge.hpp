// serial_merge: one thread merges its share. Three shapes:
//  - serial_merge / serial_merge_pairs: a whole range (both backends);
//  - serial_merge_chained / serial_merge_pairs_chained: the same, as a few merges stepped together,
//    for a CPU thread's chunk;
//  - serial_merge_n<Count>: a fixed number of outputs into registers, for a GPU thread's tile slice.
#pragma once

#include <limits>

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "merge_path.hpp"

namespace mergepath {
namespace detail {

// Walks the merge of a[0, a_count) and b[0, b_count), stable (ties take a), and hands each
// output position k its source to `emit(k, take_b, source_index)`.
template <class AIt, class BIt, class Index, class Comp, class Emit>
MERGEPATH_HD void serial_merge_walk(AIt a, Index a_count, BIt b, Index b_count, Comp comp, Emit emit) {
  Index i = 0, j = 0, k = 0;
  while (i < a_count && j < b_count) {
    // Written as arithmetic, not branches: on random keys a branch mispredicts half the time.
    bool take_b = comp(b[j], a[i]);
    emit(k++, take_b, take_b ? j : i);
    j += take_b;
    i += !take_b;
  }
  for (; i < a_count; ++i) emit(k++, false, i);
  for (; j < b_count; ++j) emit(k++, true, j);
}

}  // namespace detail

// Merges sorted a[0, a_count) and b[0, b_count) into out[0, a_count + b_count). Stable: of
// equal keys, those of a come first. O(a_count + b_count).
template <class AIt, class BIt, class Index, class OutIt, class Comp>
MERGEPATH_HD void serial_merge(AIt a, Index a_count, BIt b, Index b_count, OutIt out, Comp comp) {
  detail::serial_merge_walk(a, a_count, b, b_count, comp,
                            [&](Index k, bool take_b, Index src) { out[k] = take_b ? b[src] : a[src]; });
}

// serial_merge for key-value pairs; values travel with their keys.
template <class AKeys, class AVals, class BKeys, class BVals, class Index, class OutKeys, class OutVals, class Comp>
MERGEPATH_HD void serial_merge_pairs(AKeys a_keys, AVals a_vals, Index a_count, BKeys b_keys, BVals b_vals,
                                     Index b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  detail::serial_merge_walk(a_keys, a_count, b_keys, b_count, comp, [&](Index k, bool take_b, Index src) {
    if (take_b) {
      out_keys[k] = b_keys[src];
      out_vals[k] = b_vals[src];
    } else {
      out_keys[k] = a_keys[src];
      out_vals[k] = a_vals[src];
    }
  });
}

namespace detail {

// One of the independent merges a chained merge steps together: a[a, a_end) and b[b, b_end) into
// out from `out` on.
template <class Index>
struct merge_chain {
  Index a, a_end, b, b_end, out;
};

// Splits the merge of a[0, a_count) and b[0, b_count) into Chains merges of equal output, by
// Merge Path. The splits are clamped monotonic, so unsorted input still gives ranges in bounds.
template <int Chains, class AIt, class BIt, class Index, class Comp>
void split_merge_chains(AIt a, Index a_count, BIt b, Index b_count, Comp comp, merge_chain<Index> (&chains)[Chains]) {
  const Index total = a_count + b_count;
  Index a0 = 0, diag0 = 0;
  for (int c = 0; c < Chains; ++c) {
    const Index diag1 = c + 1 == Chains ? total : total / Chains * (c + 1);
    const Index a1 = c + 1 == Chains
                         ? a_count
                         : clamp_next_split(a0, merge_path(a, a_count, b, b_count, diag1, comp), diag0, diag1);
    chains[c] = {a0, a1, diag0 - a0, diag1 - a1, diag0};
    a0 = a1;
    diag0 = diag1;
  }
}

// No bound on a chain's steps but its two sides.
struct unbounded_room {
  template <class Chain>
  constexpr auto operator()(const Chain&) const {
    return std::numeric_limits<decltype(Chain::a)>::max();
  }
};

// Steps every chain once a round while none can run out (a round's steps are bounded by the
// shortest side left, and by room(chain) where a chain's output is bounded: the set operations'
// walks), then `finish` does what is left of each. A chain has a, a_end, b and b_end.
template <int Chains, class Chain, class Step, class Finish, class Room = unbounded_room>
void step_merge_chains(Chain (&chains)[Chains], Step step, Finish finish, Room room = {}) {
  using Index = decltype(Chain::a);
  for (;;) {
    Index steps = std::numeric_limits<Index>::max();
    for (int c = 0; c < Chains; ++c)
      steps =
          min_of(steps, min_of(room(chains[c]), min_of(chains[c].a_end - chains[c].a, chains[c].b_end - chains[c].b)));
    if (steps <= 0) break;
    for (Index s = 0; s < steps; ++s) {
      MERGEPATH_UNROLL
      for (int c = 0; c < Chains; ++c) step(chains[c]);
    }
  }
  for (int c = 0; c < Chains; ++c) finish(chains[c]);
}

}  // namespace detail

// serial_merge for a CPU thread: the same result, as `Chains` merges of equal output (split by
// Merge Path) stepped together in one loop. A merge step waits for the load of the step before
// it; a core overlaps the chains' waits, which serial_merge leaves in series. Small merges, where
// the splits' searches would not pay, take serial_merge.
template <int Chains = 4, class AIt, class BIt, class Index, class OutIt, class Comp>
void serial_merge_chained(AIt a, Index a_count, BIt b, Index b_count, OutIt out, Comp comp) {
  if (a_count + b_count < 64 * Chains) return serial_merge(a, a_count, b, b_count, out, comp);
  detail::merge_chain<Index> chains[Chains];
  detail::split_merge_chains(a, a_count, b, b_count, comp, chains);
  detail::step_merge_chains(
      chains,
      [&](detail::merge_chain<Index>& c) {
        const auto x = a[c.a];
        const auto y = b[c.b];
        const bool take_b = comp(y, x);
        out[c.out++] = take_b ? y : x;
        c.a += !take_b;
        c.b += take_b;
      },
      [&](const detail::merge_chain<Index>& c) {
        serial_merge(a + c.a, c.a_end - c.a, b + c.b, c.b_end - c.b, out + c.out, comp);
      });
}

// serial_merge_pairs for a CPU thread, in chains as serial_merge_chained.
template <int Chains = 4, class AKeys, class AVals, class BKeys, class BVals, class Index, class OutKeys,
          class OutVals, class Comp>
void serial_merge_pairs_chained(AKeys a_keys, AVals a_vals, Index a_count, BKeys b_keys, BVals b_vals, Index b_count,
                                OutKeys out_keys, OutVals out_vals, Comp comp) {
  if (a_count + b_count < 64 * Chains)
    return serial_merge_pairs(a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
  detail::merge_chain<Index> chains[Chains];
  detail::split_merge_chains(a_keys, a_count, b_keys, b_count, comp, chains);
  detail::step_merge_chains(
      chains,
      [&](detail::merge_chain<Index>& c) {
        const auto x = a_keys[c.a];
        const auto y = b_keys[c.b];
        const bool take_b = comp(y, x);
        out_keys[c.out] = take_b ? y : x;
        out_vals[c.out++] = take_b ? b_vals[c.b] : a_vals[c.a];
        c.a += !take_b;
        c.b += take_b;
      },
      [&](const detail::merge_chain<Index>& c) {
        serial_merge_pairs(a_keys + c.a, a_vals + c.a, c.a_end - c.a, b_keys + c.b, b_vals + c.b, c.b_end - c.b,
                           out_keys + c.out, out_vals + c.out, comp);
      });
}

// Produces the next Count outputs of merging keys[a_begin, a_end) with keys[b_begin, b_end)
// (two runs of one array, e.g. a tile in shared memory, a_end <= b_begin) into registers:
// out[k] is the key, source[k] its position in `keys`. With bounds::lower ties take the a run
// first, with bounds::upper the b run. Once both runs are exhausted the remaining outputs are
// unspecified and their source lies past a_end. Returns the a position after the Count steps
// (the next thread's start, when the comparator is a strict weak order: block/slice_check.cuh).
// Reads: keys[a_begin, a_end + Count] and keys[b_begin, b_end], whatever the data (an unsorted
// tile included), so a buffer with Count + 1 readable slots past b_end never reads out of
// bounds. That padding is what lets the loop load the next key without clamping its index.
template <int Count, bounds Bounds = bounds::lower, class It, class T, class Comp>
MERGEPATH_HD int serial_merge_n(It keys, int a_begin, int a_end, int b_begin, int b_end, T (&out)[Count],
                                int (&source)[Count], Comp comp) {
  T a_key = keys[a_begin];
  T b_key = keys[b_begin];
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    // a only moves past a_end once b is exhausted, and b never moves past b_end.
    bool take_a =
        b_begin >= b_end || (a_begin < a_end && (Bounds == bounds::lower ? !comp(b_key, a_key) : comp(a_key, b_key)));
    out[k] = take_a ? a_key : b_key;
    const int taken = take_a ? a_begin : b_begin;
    source[k] = taken;
    // One load a step, at the taken run's next slot: a branch per run issues two (each for
    // part of a warp), and in shared memory each costs its own wavefronts.
    const T next = keys[taken + 1];
    a_begin += take_a;
    b_begin += !take_a;
    a_key = take_a ? next : a_key;
    b_key = take_a ? b_key : next;
  }
  return a_begin;
}

// Moves (a_begin, b_begin) `steps` outputs along the walk serial_merge_n takes, producing nothing:
// where a thread's slice starts when the searches for it cannot be trusted. Any comparator gives
// slices that tile the runs this way, since every thread walks the same path from its start.
template <bounds Bounds = bounds::lower, class It, class Comp>
MERGEPATH_HD void serial_merge_advance(It keys, int& a_begin, int a_end, int& b_begin, int b_end, int steps,
                                       Comp comp) {
  for (; steps > 0 && a_begin < a_end && b_begin < b_end; --steps) {
    const bool take_a = Bounds == bounds::lower ? !comp(keys[b_begin], keys[a_begin]) : comp(keys[a_begin], keys[b_begin]);
    a_begin += take_a;
    b_begin += !take_a;
  }
  // One run is exhausted: the rest come from the other, b never past b_end.
  const int from_b = b_begin < b_end ? detail::min_of(steps, b_end - b_begin) : 0;
  b_begin += from_b;
  a_begin += steps - from_b;
}

// The same for two runs held in separate arrays (e.g. two shared-memory rings): the next
// Count outputs of merging a[a_begin, a_end) with b[b_begin, b_end), keys only. Reads only
// inside the runs (a key is fetched only while its run has one), so no padding is needed.
template <int Count, bounds Bounds = bounds::lower, class AIt, class BIt, class T, class Comp>
MERGEPATH_HD int serial_merge_n(AIt a, int a_begin, int a_end, BIt b, int b_begin, int b_end, T (&out)[Count],
                                Comp comp) {
  T a_key = a[a_begin < a_end ? a_begin : 0];
  T b_key = b[b_begin < b_end ? b_begin : 0];
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    bool take_a =
        b_begin >= b_end || (a_begin < a_end && (Bounds == bounds::lower ? !comp(b_key, a_key) : comp(a_key, b_key)));
    out[k] = take_a ? a_key : b_key;
    if (take_a) {
      if (++a_begin < a_end) a_key = a[a_begin];
    } else {
      if (++b_begin < b_end) b_key = b[b_begin];
    }
  }
  return a_begin;
}

// serial_merge_advance for two runs in separate arrays.
template <bounds Bounds = bounds::lower, class AIt, class BIt, class Comp>
MERGEPATH_HD void serial_merge_advance(AIt a, int& a_begin, int a_end, BIt b, int& b_begin, int b_end, int steps,
                                       Comp comp) {
  for (; steps > 0 && a_begin < a_end && b_begin < b_end; --steps) {
    const bool take_a = Bounds == bounds::lower ? !comp(b[b_begin], a[a_begin]) : comp(a[a_begin], b[b_begin]);
    a_begin += take_a;
    b_begin += !take_a;
  }
  const int from_b = b_begin < b_end ? detail::min_of(steps, b_end - b_begin) : 0;
  b_begin += from_b;
  a_begin += steps - from_b;
}

}  // namespace mergepath
