// One needle's search in a sorted array, and the Eytzinger (BFS) layout's index arithmetic (the
// Futhark "Binary search" example; Khuong and Morin's "Array layouts for comparison-based
// searching"). Pure __host__ __device__, shared by both backends and usable in user kernels.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../detail/config.hpp"
#include "../functional.hpp"

namespace mergepath {
namespace detail {

// Position of the highest set bit (x > 0), and the count of trailing zero bits (x > 0).
MERGEPATH_HD inline int highest_bit(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return 63 - __clzll(static_cast<long long>(x));
#else
  return 63 - __builtin_clzll(x);
#endif
}
MERGEPATH_HD inline int trailing_zeros(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __ffsll(static_cast<long long>(x)) - 1;
#else
  return __builtin_ctzll(x);
#endif
}

// Whether comp can order two Keys: not less<> on a type without operator< (eytzinger_layout's
// default comparator, which only checked mode calls, for keys the caller orders otherwise).
template <class T, class = void>
struct has_less_than : std::false_type {};
template <class T>
struct has_less_than<T, std::void_t<decltype(std::declval<const T&>() < std::declval<const T&>())>> : std::true_type {};
template <class Comp, class Key>
struct orders_keys : std::true_type {};
template <class Key>
struct orders_keys<less<>, Key> : has_less_than<Key> {};

// Does the search for x go past element e? For lower bounds while e < x, for upper while e <= x.
template <bounds Bounds, class T, class U, class Comp>
MERGEPATH_HD bool goes_past(const T& element, const U& x, Comp comp) {
  return Bounds == bounds::lower ? comp(element, x) : !comp(x, element);
}

// The searches' default read of an element: *it (a step number, where the search passes one, is
// for loads that hint by step).
struct plain_load {
  template <class It>
  MERGEPATH_HD auto operator()(It it, int /*step*/ = 0) const -> decltype(*it) {
    return *it;
  }
};

}  // namespace detail

// The lower (or upper) bound of x in sorted[0, count), as std::lower_bound / std::upper_bound.
// Branch-free halving: ceil(log2(count + 1)) loads whatever the data, each one's index known from
// the last comparison alone. Reads only sorted[0, count), sorted or not.
// The element is read as load(sorted + index, step), step = 0, 1, ... (the GPU kernel passes an
// L2 hint by step); the overload below reads it plainly. The arithmetic is in count's type: a
// 32-bit count halves the instructions of a step (the GPU's needle search is bound by them where
// its reads hit in cache).
template <bounds Bounds = bounds::lower, class It, class Count, class T, class Comp, class Load>
MERGEPATH_HD Count binary_search_bound(It sorted, Count count, const T& x, Comp comp, Load load) {
  static_assert(std::is_integral_v<Count> && std::is_signed_v<Count>, "a signed count");
  Count base = 0;
  for (int step = 0; count > 0; ++step) {
    Count half = count / 2;
    bool past = detail::goes_past<Bounds>(load(sorted + (base + half), step), x, comp);
    base = past ? base + half + 1 : base;
    count = past ? count - half - 1 : half;
  }
  return base;
}

// The same bound with the window's size independent of the data: each step keeps the size of
// the upper half, floor(count / 2), whichever side the bound lies on (on the lower side that
// window also holds keys known not to go past, which changes nothing), so the loop's count and
// each probe's offset from base run ahead of the loads, and a step's dependent chain is only
// load, compare, select, add. Same reads bound as binary_search_bound: sorted[0, count).
// The steps run while the window [base, base + count] holds more than down_to keys, each key
// read as load(sorted + probe): a search can change how it reads between stretches of steps.
template <bounds Bounds = bounds::lower, class It, class Count, class T, class Comp, class Load>
MERGEPATH_HD void fixed_halving_steps(It sorted, Count& base, Count& count, Count down_to, const T& x, Comp comp,
                                      Load load) {
  static_assert(std::is_integral_v<Count> && std::is_signed_v<Count>, "a signed count");
  while (count > down_to) {
    const Count upper = count / 2;
    const Count probe = base + (count - upper - 1);
    base = detail::goes_past<Bounds>(load(sorted + probe), x, comp) ? probe + 1 : base;
    count = upper;
  }
}
template <bounds Bounds = bounds::lower, class It, class Count, class T, class Comp>
MERGEPATH_HD Count fixed_halving_bound(It sorted, Count count, const T& x, Comp comp) {
  Count base = 0;
  fixed_halving_steps<Bounds>(sorted, base, count, Count{0}, x, comp, detail::plain_load{});
  return base;
}

template <bounds Bounds = bounds::lower, class It, class Count, class T, class Comp>
MERGEPATH_HD Count binary_search_bound(It sorted, Count count, const T& x, Comp comp) {
  return binary_search_bound<Bounds>(sorted, count, x, comp, detail::plain_load{});
}

// The lower (or upper) bound of x in sorted[0, count), given that it lies at or after `from`
// (the bound of a needle ordered no later than x): galloping up from `from` by steps of 1, 2, 4,
// ..., then a binary search of the last step, 2 log2(d) + O(1) reads for a bound d past `from`.
// Sorted needles searched in turn so cost the logs of their gaps, not of count. Reads only
// sorted[from, count); the result lies in [from, count].
template <bounds Bounds = bounds::lower, class It, class Count, class T, class Comp>
MERGEPATH_HD Count gallop_bound(It sorted, Count from, Count count, const T& x, Comp comp) {
  static_assert(std::is_integral_v<Count> && std::is_signed_v<Count>, "a signed count");
  Count lo = from, step = 1;  // the bound is at least lo
  while (step <= count - lo && detail::goes_past<Bounds>(sorted[lo + step - 1], x, comp)) {
    lo += step;
    step *= 2;
  }
  const Count window = step <= count - lo ? step - 1 : count - lo;  // sorted[lo + step - 1] ends it
  return lo + binary_search_bound<Bounds>(sorted + lo, window, x, comp);
}

namespace detail {

// First k in [0, end] with x[k, end) all not ordered before key (the start of key's run ending at
// end), galloping down from end: O(log run) reads, 1 where the run is empty.
template <class It, class Index, class Key, class Comp>
MERGEPATH_HD Index run_start_before(It x, Index end, const Key& key, Comp comp) {
  Index hi = end, step = 1;
  while (hi > 0 && !comp(x[hi - 1], key)) {  // x[hi - 1] is in the run: gallop on
    Index probe = hi - step > 0 ? hi - step : 0;
    if (comp(x[probe], key)) {  // the start lies in (probe, hi)
      Index lo = probe + 1;
      while (lo < hi) {
        Index mid = lo + (hi - lo) / 2;
        if (comp(x[mid], key))
          lo = mid + 1;
        else
          hi = mid;
      }
      return hi;
    }
    hi = probe;
    step *= 2;
  }
  return hi;
}

// First k in [begin, count] with key ordered before x[k] (the end of key's run from begin),
// galloping up from begin.
template <class It, class Index, class Key, class Comp>
MERGEPATH_HD Index run_end_after(It x, Index begin, Index count, const Key& key, Comp comp) {
  Index lo = begin, step = 1;
  while (lo < count && !comp(key, x[lo])) {  // x[lo] is in the run
    Index probe = count - lo > step ? lo + step : count - 1;
    if (comp(key, x[probe])) {  // the end lies in (lo, probe]
      Index hi = probe;
      ++lo;
      while (lo < hi) {
        Index mid = lo + (hi - lo) / 2;
        if (comp(key, x[mid]))
          hi = mid;
        else
          lo = mid + 1;
      }
      return lo;
    }
    lo = probe + 1;
    step *= 2;
  }
  return lo;
}

}  // namespace detail

// The Eytzinger layout of n sorted keys is the complete binary tree with n nodes in heap order
// (node k, from 1, has children 2k and 2k + 1) whose in-order walk is the sorted order. Its levels
// 0 .. h - 2 are full and its last level h - 1 holds the m = n - (2^(h-1) - 1) leftmost of its
// 2^(h-1) slots. Place the tree in the perfect tree of height h: in-order, the perfect tree's
// last-level slots sit at the even positions 0, 2, 4, ..., and the missing ones are those at 2m and
// after. That gives both directions in closed form, for any n (the Futhark example's formula is the
// case m = 2^(h-1)).
struct eytzinger_shape {
  index_t count;
  int height;          // levels, h = floor(log2 n) + 1
  index_t last_level;  // m: nodes on the last level

  MERGEPATH_HD explicit eytzinger_shape(index_t n) : count(n), height(0), last_level(0) {
    if (n > 0) {
      height = detail::highest_bit(static_cast<std::uint64_t>(n)) + 1;
      last_level = n - ((index_t{1} << (height - 1)) - 1);
    }
  }

  // The sorted index of node k (1 <= k <= count).
  MERGEPATH_HD index_t sorted_index(index_t k) const {
    int depth = detail::highest_bit(static_cast<std::uint64_t>(k));
    index_t in_level = k - (index_t{1} << depth);
    index_t perfect = ((2 * in_level + 1) << (height - 1 - depth)) - 1;  // in-order, perfect tree
    index_t missing_before = detail::max_of<index_t>(0, (perfect + 1) / 2 - last_level);
    return perfect - missing_before;
  }

  // The node (from 1) that holds sorted index i (0 <= i < count).
  MERGEPATH_HD index_t node_of(index_t i) const {
    index_t perfect = i < 2 * last_level ? i : 2 * i - 2 * last_level + 1;
    int below = detail::trailing_zeros(static_cast<std::uint64_t>(perfect + 1));  // levels under it
    index_t in_level = (perfect + 1) >> (below + 1);
    return (index_t{1} << (height - 1 - below)) + in_level;
  }
};

// The lower (or upper) bound of x among the keys of an Eytzinger tree tree[0, count), as an index
// into the sorted order: the same answer binary_search_bound gives on the sorted array. The
// descent is branch-free; the node it last went left at is the bound.
template <bounds Bounds = bounds::lower, class It, class T, class Comp>
MERGEPATH_HD index_t eytzinger_search_bound(It tree, index_t count, const T& x, Comp comp) {
  index_t k = 1;
  while (k <= count) k = 2 * k + (detail::goes_past<Bounds>(tree[k - 1], x, comp) ? 1 : 0);
  // k's path below the answer is one left turn then only right turns: drop them.
  k >>= detail::trailing_zeros(static_cast<std::uint64_t>(~k)) + 1;
  return k == 0 ? count : eytzinger_shape(count).sorted_index(k);
}

}  // namespace mergepath
