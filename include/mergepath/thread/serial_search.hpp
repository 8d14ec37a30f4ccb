// serial_search: the sequential sorted search of moderngpu's Vectorized Sorted Search, shared by
// both backends. It walks the Merge Path of a and b as a merge does, but where a merge writes the
// element that comes out, the search writes that element's bound in the other input (and whether
// the other input holds an equal element).
#pragma once

#include <iterator>
#include <type_traits>

#include "../detail/config.hpp"
#include "../error.hpp"
#include "../functional.hpp"

namespace mergepath {

// Does a's key come out before b's at a step of the Merge Path? bounds::lower: ties take a, so
// a[i] comes out at its lower bound in b and b[j] at its upper bound in a; bounds::upper the
// other way round.
template <bounds Bounds, class AKey, class BKey, class Comp>
MERGEPATH_HD bool takes_a(const AKey& a_key, const BKey& b_key, Comp comp) {
  return Bounds == bounds::lower ? !comp(b_key, a_key) : comp(a_key, b_key);
}

// When a[i] comes out at b's position j, the one element of b it can equal is b[j] (lower: all
// before are smaller) or b[j - 1] (upper: all after are greater): `b_neighbour` is that element,
// `has_neighbour` whether it exists.
template <bounds Bounds, class AKey, class BKey, class Comp>
MERGEPATH_HD bool a_has_match(const AKey& a_key, const BKey& b_neighbour, bool has_neighbour, Comp comp) {
  if (!has_neighbour) return false;
  return Bounds == bounds::lower ? !comp(a_key, b_neighbour) : !comp(b_neighbour, a_key);
}

// When b[j] comes out at a's position i, the one element of a it can equal is a[i - 1] (lower)
// or a[i] (upper).
template <bounds Bounds, class AKey, class BKey, class Comp>
MERGEPATH_HD bool b_has_match(const BKey& b_key, const AKey& a_neighbour, bool has_neighbour, Comp comp) {
  if (!has_neighbour) return false;
  return Bounds == bounds::lower ? !comp(a_neighbour, b_key) : !comp(b_key, a_neighbour);
}

// Whether an output of this type reports matches.
MERGEPATH_HD constexpr bool reports_matches(search type) {
  return type == search::match || type == search::index_match;
}

// What an output element of type Out holds for a bound and a match flag.
template <search Type, class Out>
MERGEPATH_HD Out search_result(index_t bound, bool match) {
  static_assert(Type != search::none, "search::none writes nothing");
  if constexpr (Type == search::index) {
    return static_cast<Out>(bound);
  } else if constexpr (Type == search::match) {
    return static_cast<Out>(match ? 1 : 0);
  } else {
    static_assert(std::is_integral_v<Out>,
                  "search::index_match needs an integer output type (its top bit flags a match)");
    using Bits = std::make_unsigned_t<Out>;
    constexpr Bits match_bit = Bits{1} << (8 * sizeof(Out) - 1);
    return static_cast<Out>(static_cast<Bits>(bound) | (match ? match_bit : Bits{0}));
  }
}

// The element type written through an output iterator.
template <class OutIt>
using search_output_t = typename std::iterator_traits<OutIt>::value_type;

// The outputs of the Merge Path steps that consume a[a_begin, a_end) and b[b_begin, b_end) (a
// span of the whole path: a split by merge_path<Bounds>, or everything): a_out[i] for i in
// [a_begin, a_end) and b_out[j] for j in [b_begin, b_end), each as TypeA / TypeB says. Match tests
// look one element past the span, within a[0, a_count) and b[0, b_count). Returns the matches it
// saw on the sides that report them. For any data, only those ranges are read and written.
template <bounds Bounds, search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut, class Comp>
MERGEPATH_HD match_counts serial_search(AIt a, index_t a_count, BIt b, index_t b_count, index_t a_begin, index_t a_end,
                                        index_t b_begin, index_t b_end, AOut a_out, BOut b_out, Comp comp) {
  match_counts matches;
  index_t i = a_begin, j = b_begin;
  while (i < a_end || j < b_end) {
    if (j >= b_end || (i < a_end && takes_a<Bounds>(a[i], b[j], comp))) {
      if constexpr (TypeA != search::none) {
        bool match = false;
        if constexpr (reports_matches(TypeA)) {
          bool has = Bounds == bounds::lower ? j < b_count : j > 0;
          match = has && a_has_match<Bounds>(a[i], b[Bounds == bounds::lower ? j : j - 1], true, comp);
          matches.a += match;
        }
        a_out[i] = search_result<TypeA, search_output_t<AOut>>(j, match);
      }
      ++i;
    } else {
      if constexpr (TypeB != search::none) {
        bool match = false;
        if constexpr (reports_matches(TypeB)) {
          bool has = Bounds == bounds::lower ? i > 0 : i < a_count;
          match = has && b_has_match<Bounds>(b[j], a[Bounds == bounds::lower ? i - 1 : i], true, comp);
          matches.b += match;
        }
        b_out[j] = search_result<TypeB, search_output_t<BOut>>(i, match);
      }
      ++j;
    }
  }
  return matches;
}

// What Count steps of the search's walk decided: bit k of from_a says step k emitted a's element
// (else b's); bit k of matched, that the element has an equal in the other input.
struct search_steps {
  unsigned from_a = 0;
  unsigned matched = 0;
};

// A GPU tile's two runs in shared memory: a[0, a_count) and b[0, b_count), and the neighbours
// the inputs have beyond them, a[-a_before] (0 or 1 of them) and a[a_count] (a_after), b alike.
// Slots past a run may be read (padding or the next run), never trusted.
template <class It>
struct search_runs {
  It a;
  int a_count, a_before, a_after;
  It b;
  int b_count, b_before, b_after;
};

// Whether serial_search_n tests for the runs' ends. Where both runs have their next elements
// (a_after and b_after) it need not: a's next element comes out after every b of the tile and
// b's after every a, so the comparison alone stops each run at its end, on sorted input.
enum class run_ends { tested, by_neighbours };

// The first `steps` (<= Count <= 32) steps of the search's Merge Path walk over a tile's runs,
// from a[i] and b[j], with the current keys in registers: serial_search's decisions, made without
// branches (on random keys a branch on the decision diverges half the warp) and without keeping
// the bounds, which the decisions imply. MatchA / MatchB: test the side's elements for an equal.
// With run_ends::by_neighbours on unsorted input the decisions may take more of a run than it
// has: search_steps_fit tells.
template <bounds Bounds, bool MatchA, bool MatchB, int Count, run_ends Ends = run_ends::tested, class It, class Comp>
MERGEPATH_HD search_steps serial_search_n(const search_runs<It>& runs, int i, int j, int steps, Comp comp) {
  static_assert(Count <= 32, "the decisions are bits of one word");
  constexpr bool tested = Ends == run_ends::tested;
  // The match tests' other neighbour: the previous a (lower bound) or the previous b (upper).
  constexpr bool keeps_a_prev = Bounds == bounds::lower && MatchB;
  constexpr bool keeps_b_prev = Bounds == bounds::upper && MatchA;
  using Key = std::remove_cv_t<std::remove_reference_t<decltype(*runs.a)>>;
  const It a = runs.a;
  const It b = runs.b;
  const int i_first = i, j_first = j;
  Key a_key = a[i], b_key = b[j];
  Key a_prev = a[keeps_a_prev ? detail::max_of(i - 1, -runs.a_before) : i];  // trusted only where a[i - 1] exists
  Key b_prev = b[keeps_b_prev ? detail::max_of(j - 1, -runs.b_before) : j];  // trusted only where b[j - 1] exists
  // The next element of each run, as an address that moves on with its side; positions are
  // counted only where the end tests need them (the walk's instructions bound the tile kernel).
  It a_next = a + (i + 1), b_next = b + (j + 1);
  search_steps out;
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    // Past `steps` (a thread's share ends early only at the tile's end) a keeps moving through
    // padding; those steps' bits are dropped below.
    bool take_a;
    if constexpr (tested)
      take_a = j >= runs.b_count || (i < runs.a_count && takes_a<Bounds>(a_key, b_key, comp));
    else
      take_a = takes_a<Bounds>(a_key, b_key, comp);
    if constexpr (MatchA || MatchB) {
      // Without end tests every neighbour a match test needs exists, but for the inputs' first
      // elements: the a before a[0] (lower) or the b before b[0] (upper), handled after the walk.
      bool match;
      if constexpr (Bounds == bounds::lower)
        match = take_a ? MatchA && a_has_match<Bounds>(a_key, b_key, !tested || j < runs.b_count + runs.b_after, comp)
                       : MatchB && b_has_match<Bounds>(b_key, a_prev, !tested || i > -runs.a_before, comp);
      else
        match = take_a ? MatchA && a_has_match<Bounds>(a_key, b_prev, !tested || j > -runs.b_before, comp)
                       : MatchB && b_has_match<Bounds>(b_key, a_key, !tested || i < runs.a_count + runs.a_after, comp);
      out.matched |= static_cast<unsigned>(match) << k;
      detail::materialize(out.matched);
    }
    out.from_a |= static_cast<unsigned>(take_a) << k;
    detail::materialize(out.from_a);
    Key next = *(take_a ? a_next : b_next);  // one load, from the side that moves
    if constexpr (keeps_a_prev) a_prev = take_a ? a_key : a_prev;
    if constexpr (keeps_b_prev) b_prev = take_a ? b_prev : b_key;
    a_key = take_a ? next : a_key;
    b_key = take_a ? b_key : next;
    a_next = a_next + static_cast<int>(take_a);
    b_next = b_next + static_cast<int>(!take_a);
    if constexpr (tested) {
      i += take_a;
      j += !take_a;
    }
  }
  unsigned taken = steps >= 32 ? ~0u : (1u << steps) - 1;
  out.from_a &= taken;
  out.matched &= taken;
  if constexpr (!tested) {
    // Steps before the walk's first a (lower) or first b (upper), from the inputs' very first
    // element on that side, have no neighbour to match: their bits are cleared here.
    if constexpr (keeps_a_prev)
      if (i_first == 0 && runs.a_before == 0) out.matched &= ~((out.from_a & (0u - out.from_a)) - 1u);
    if constexpr (keeps_b_prev) {
      unsigned from_b = ~out.from_a & taken;
      if (j_first == 0 && runs.b_before == 0) out.matched &= ~((from_b & (0u - from_b)) - 1u);
    }
  }
  return out;
}

// Whether the first `steps` decisions of a walk from a[i], b[j] stay inside the runs (always, on
// sorted input).
template <class It>
MERGEPATH_HD bool search_steps_fit(const search_runs<It>& runs, int i, int j, const search_steps& decided, int steps) {
  unsigned taken = steps >= 32 ? ~0u : (1u << steps) - 1;
  return i + detail::popcount(decided.from_a) <= runs.a_count &&
         j + detail::popcount(~decided.from_a & taken) <= runs.b_count;
}

}  // namespace mergepath

namespace mergepath {
namespace detail {

// An output iterator for sorted_equality_count: writing upper bound u at position i stores
// op(lower_bounds[i], u) to counts[i], so the upper-bound search computes the counts directly.
template <class LowerIt, class CountIt, class Op>
struct equality_count_output {
  using value_type = index_t;
  using difference_type = index_t;
  using iterator_category = std::random_access_iterator_tag;

  struct reference {
    LowerIt lower_bound;
    CountIt count;
    Op op;
    MERGEPATH_HD reference& operator=(index_t upper_bound) {
      *count = op(static_cast<index_t>(*lower_bound), upper_bound);
      return *this;
    }
  };
  using pointer = void;

  LowerIt lower_bounds;
  CountIt counts;
  Op op;

  MERGEPATH_HD reference operator[](index_t i) const { return {lower_bounds + i, counts + i, op}; }
  MERGEPATH_HD equality_count_output operator+(index_t offset) const {
    return {lower_bounds + offset, counts + offset, op};
  }
};

// The argument checks both backends' sorted_search and sorted_equality_count make first.
template <search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut>
void require_search_ranges(AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, BOut b_out) {
  require_range("sorted_search", "a", a, a_count);
  require_range("sorted_search", "b", b, b_count);
  if constexpr (TypeA != search::none) require_range("sorted_search", "a_out", a_out, a_count);
  if constexpr (TypeB != search::none) require_range("sorted_search", "b_out", b_out, b_count);
}
template <class AIt, class BIt, class LowerIt, class OutIt>
void require_equality_count_ranges(AIt a, index_t a_count, BIt b, index_t b_count, LowerIt lower_bounds, OutIt counts) {
  require_range("sorted_equality_count", "lower_bounds", lower_bounds, a_count);
  require_range("sorted_equality_count", "counts", counts, a_count);
  require_range("sorted_equality_count", "a", a, a_count);
  require_range("sorted_equality_count", "b", b, b_count);
}

}  // namespace detail
}  // namespace mergepath
