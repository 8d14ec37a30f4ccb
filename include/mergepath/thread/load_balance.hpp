// Load-balancing search (moderngpu's Vectorized Sorted Search: "a straight-forward specialization
// of vectorized sorted search"): the Merge Path of the work items [0, count) against the segment
// starts. Pure __host__ __device__ pieces shared by both backends.
#pragma once

#include <iterator>
#include <type_traits>

#include "../detail/config.hpp"
#include "../functional.hpp"
#include "merge_path.hpp"

namespace mergepath {

// The work items first, first + 1, ... as a random-access sequence with no memory behind it:
// the b side of the load-balancing merge path.
struct counting_sequence {
  using value_type = index_t;
  using difference_type = index_t;
  using pointer = const index_t*;
  using reference = index_t;
  using iterator_category = std::random_access_iterator_tag;
  index_t first = 0;
  MERGEPATH_HD index_t operator[](index_t i) const { return first + i; }
};

// The path's order as merge_path asks it, comp(item, start): item i comes before start s only
// when i < starts[s], so a segment's start precedes its first item, and an empty segment's start
// precedes the next one's.
struct item_before_start {
  template <class Item, class Start>
  MERGEPATH_HD constexpr bool operator()(const Item& item, const Start& start) const {
    return static_cast<index_t>(item) < static_cast<index_t>(start);
  }
};

// How many segment starts lie among the first `diag` steps of the path through
// starts[0, num_segments) and the items [0, count). Only starts is read; for malformed starts
// the result still lies in [max(0, diag - count), min(diag, num_segments)].
template <int Probes = 1, class StartsIt>
MERGEPATH_HD index_t load_balance_split(StartsIt starts, index_t num_segments, index_t count, index_t diag) {
  // merge_path's lower bound asks !(item < start), that is start <= item: the start goes first.
  return merge_path<bounds::lower, Probes>(starts, num_segments, counting_sequence{0}, count, diag,
                                           item_before_start{});
}

// One share of the path: the starts [start_begin, start_end) and the items [item_begin, item_end).
struct load_balance_share {
  index_t start_begin, start_end, item_begin, item_end;
};

// The share of the path between diagonals diag0 <= diag1, from the splits there (clamped so that
// malformed starts still give two valid, non-negative ranges).
MERGEPATH_HD inline load_balance_share load_balance_share_between(index_t split0, index_t split1, index_t diag0,
                                                                   index_t diag1) {
  split1 = clamp_next_split(split0, split1, diag0, diag1);
  return {split0, split1, diag0 - split0, diag1 - split1};
}

// A share of the path walked serially, a segment at a time: on_piece(s, lo, hi) for the items
// [lo, hi) of the share that lie in segment s, in order, empty pieces included; the first piece
// is of segment start_begin - 1 (the one open when the share begins). Reads starts[start_begin,
// start_end); pieces never leave [item_begin, item_end), whatever the starts hold. The host
// backend's walk (a tight loop per piece, no per-item test); a GPU block walks its tile in shared
// memory instead (block/load_balance.cuh).
template <class StartsIt, class OnPiece>
void walk_load_balance_pieces(StartsIt starts, const load_balance_share& share, OnPiece on_piece) {
  index_t lo = share.item_begin;
  for (index_t s = share.start_begin; s < share.start_end; ++s) {
    const index_t hi = detail::min_of(detail::max_of(static_cast<index_t>(starts[s]), lo), share.item_end);
    on_piece(s - 1, lo, hi);
    lo = hi;
  }
  on_piece(share.start_end - 1, lo, share.item_end);
}

// Clamps a segment found for an item into [0, num_segments): well-formed starts need no clamp
// (every item has a segment); malformed ones (first start above 0) must not index outside.
MERGEPATH_HD inline index_t clamp_segment(index_t segment, index_t num_segments) {
  return detail::min_of(detail::max_of<index_t>(segment, 0), num_segments - 1);
}

// Item i's rank in its segment, i - segment_start, clamped into [0, i]: well-formed starts need
// no clamp; with malformed ones a rank still stays below count. The start is clamped before the
// subtraction, so that no start (INT64_MIN included) overflows it: as many instructions.
MERGEPATH_HD inline index_t rank_in_segment(index_t item, index_t segment_start) {
  return item - detail::min_of(detail::max_of<index_t>(segment_start, 0), item);
}

// The per-item function of interval_gather, interval_scatter and interval_move: transform_lbs
// calls it with an item, its segment and its rank in the segment, and it copies
// in[from(item, segment, rank)] to out[to(item, segment, rank)]. A position is the item itself
// (item_position) or a table's entry for the segment plus the rank (segment_table_position).
struct item_position {
  MERGEPATH_HD index_t operator()(index_t item, index_t, index_t) const { return item; }
};

template <class TableIt>
struct segment_table_position {
  TableIt table;
  MERGEPATH_HD index_t operator()(index_t, index_t segment, index_t rank) const {
    return static_cast<index_t>(table[segment]) + rank;
  }
};

template <class InIt, class From, class To, class OutIt>
struct copy_intervals {
  InIt in;
  From from;
  To to;
  OutIt out;
  MERGEPATH_HD void operator()(index_t item, index_t segment, index_t rank) const {
    out[to(item, segment, rank)] = in[from(item, segment, rank)];
  }
};

// segmented_reduce's value source: values[i] as the reduction's type T.
template <class It, class T>
struct value_at_as {
  It values;
  MERGEPATH_HD T operator()(index_t i) const { return static_cast<T>(values[i]); }
};

// An accumulator of a segment's items under an associative op that may have no identity: empty
// until the first item, then op(acc, item) in item order.
template <class T>
struct partial_reduction {
  T value{};
  bool valid = false;

  template <class Op>
  MERGEPATH_HD void add(const T& item, Op op) {
    value = valid ? static_cast<T>(op(value, item)) : item;
    valid = true;
  }
  // This partial followed by `later` (items of the same segment that come after).
  template <class Op>
  MERGEPATH_HD partial_reduction then(const partial_reduction& later, Op op) const {
    if (!valid) return later;
    if (!later.valid) return *this;
    return {static_cast<T>(op(value, later.value)), true};
  }
  // The segment's result: init op (items...), or init for an empty segment.
  template <class Op>
  MERGEPATH_HD T finish(const T& init, Op op) const {
    return valid ? static_cast<T>(op(init, value)) : init;
  }
};

// A partial reduction tagged with its segment: combining two keeps only the later one unless
// both belong to the same segment (reduce-by-key; associative for non-decreasing segments).
template <class T>
struct segment_partial {
  index_t segment;
  partial_reduction<T> partial;
};

template <class T, class Op>
struct combine_segment_partials {
  Op op;
  MERGEPATH_HD segment_partial<T> operator()(const segment_partial<T>& earlier, const segment_partial<T>& later) const {
    if (earlier.segment != later.segment) return later;
    return {later.segment, earlier.partial.then(later.partial, op)};
  }
};

}  // namespace mergepath
