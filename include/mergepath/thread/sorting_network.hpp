// sort_network: one thread sorts a few keys held in registers (a GPU thread's slice of a
// blocksort, a CPU thread's smallest runs). Shared by both backends.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <utility>

#include "../detail/config.hpp"
#include "../functional.hpp"

namespace mergepath {
namespace detail {

// Stands in for the values of a keys-only sort.
struct no_thread_values {
  MERGEPATH_HD no_thread_values& operator[](int) { return *this; }
};

template <class T>
MERGEPATH_HD void swap_if(bool swap, T& x, T& y) {
  T low = swap ? y : x;
  T high = swap ? x : y;
  x = low;
  y = high;
}

}  // namespace detail

// Sorts keys[0, Count) (and moves values[i] with keys[i]) by an odd-even transposition network:
// Count rounds of compare-exchanges between neighbours, alternately (0,1)(2,3)... and
// (1,2)(3,4)... Stable, because it only ever swaps neighbours that are strictly out of order.
// Only keys[0, valid) take part: the others stay where they are, after every valid key (a
// partial tile's thread). O(Count^2) work with no data-dependent branch or index, so the keys
// stay in registers on a GPU.
template <int Count, class Key, class Values, class Comp>
MERGEPATH_HD void sort_network(Key (&keys)[Count], Values& values, int valid, Comp comp) {
  constexpr bool has_values = !std::is_same_v<Values, detail::no_thread_values>;
  MERGEPATH_UNROLL
  for (int round = 0; round < Count; ++round) {
    MERGEPATH_UNROLL
    for (int i = round & 1; i + 1 < Count; i += 2) {
      bool swap = i + 1 < valid && comp(keys[i + 1], keys[i]);
      detail::swap_if(swap, keys[i], keys[i + 1]);
      if constexpr (has_values) detail::swap_if(swap, values[i], values[i + 1]);
    }
  }
}

// The keys-only form.
template <int Count, class Key, class Comp>
MERGEPATH_HD void sort_network(Key (&keys)[Count], int valid, Comp comp) {
  detail::no_thread_values none;
  sort_network(keys, none, valid, comp);
}

// Whether keys that compare equal under Comp are the same bits: integers under less or greater
// (of the key's own type, or transparent). Then nobody can tell in which order a keys-only sort
// left equal keys, and it may use a network that is not stable (sort_network_unstable).
template <class Comp, class Key>
struct integer_order {
  static constexpr bool ascending = std::is_same_v<Comp, less<>> || std::is_same_v<Comp, less<Key>> ||
                                    std::is_same_v<Comp, std::less<>> || std::is_same_v<Comp, std::less<Key>>;
  static constexpr bool descending = std::is_same_v<Comp, greater<>> || std::is_same_v<Comp, greater<Key>> ||
                                     std::is_same_v<Comp, std::greater<>> || std::is_same_v<Comp, std::greater<Key>>;
};
template <class Key, class Comp>
struct equal_keys_are_identical
    : std::bool_constant<std::is_integral_v<Key> && (integer_order<Comp, Key>::ascending ||
                                                     integer_order<Comp, Key>::descending)> {};

namespace detail {

// A key that no key sorts after, under a comparator of equal_keys_are_identical: the padding of
// a slice of fewer than Count keys.
template <class Key, class Comp>
struct last_key {
  static constexpr Key value =
      integer_order<Comp, Key>::descending ? std::numeric_limits<Key>::lowest() : std::numeric_limits<Key>::max();
};

// Batcher's odd-even merge sort of the next power of two at or above Count keys, without the
// comparators that touch a slot at or past Count: those slots hold padding that sorts last, so
// such a comparator never exchanges. Generated at compile time; comparator c orders slots
// low[c] < high[c].
template <int Count>
struct merge_exchange_network {
  static constexpr int padded() {
    int n = 1;
    while (n < Count) n *= 2;
    return n;
  }
  static constexpr int capacity() {  // Batcher's count for the padded size
    int log = 0;
    while ((1 << log) < padded()) ++log;
    return (log * log - log + 4) * padded() / 4;
  }
  int size = 0;
  int low[capacity()] = {};
  int high[capacity()] = {};

  constexpr merge_exchange_network() {
    const int n = padded();
    for (int p = 1; p < n; p *= 2)      // merge sorted blocks of p into blocks of 2p
      for (int k = p; k >= 1; k /= 2)   // comparators k apart
        for (int j = k % p; j + k < n; j += 2 * k)
          for (int i = 0; i < k && i + j + k < n; ++i)
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p) && i + j + k < Count) {
              low[size] = i + j;
              high[size] = i + j + k;
              ++size;
            }
  }
};

template <int Count>
inline constexpr merge_exchange_network<Count> merge_exchange_network_v{};
template <int Count, int C>
inline constexpr int network_low = merge_exchange_network_v<Count>.low[C];
template <int Count, int C>
inline constexpr int network_high = merge_exchange_network_v<Count>.high[C];

template <int Count, class Key, class Comp, int... C>
MERGEPATH_HD void apply_merge_exchange_network(Key (&keys)[Count], Comp comp, std::integer_sequence<int, C...>) {
  (void)comp;  // one key: no comparator
  (swap_if(comp(keys[network_high<Count, C>], keys[network_low<Count, C>]), keys[network_low<Count, C>],
           keys[network_high<Count, C>]),
   ...);
}

}  // namespace detail

// Sorts keys[0, valid) of keys[0, Count) as sort_network does, by Batcher's merge-exchange
// network (detail::merge_exchange_network): O(Count log^2 Count) compare-exchanges, 246 for 33
// keys against sort_network's 528 (on a GPU the blocksort's network is bound by the integer
// pipe), but equal keys may change places, so only for keys whose equal keys are identical
// (equal_keys_are_identical). Slots from `valid` on end up holding a key that sorts last.
template <int Count, class Key, class Comp>
MERGEPATH_HD void sort_network_unstable(Key (&keys)[Count], int valid, Comp comp) {
  static_assert(equal_keys_are_identical<Key, Comp>::value, "an unstable network would reorder equal keys");
  MERGEPATH_UNROLL
  for (int i = 0; i < Count; ++i)
    if (i >= valid) keys[i] = detail::last_key<Key, Comp>::value;
  detail::apply_merge_exchange_network(keys, comp,
                                       std::make_integer_sequence<int, detail::merge_exchange_network_v<Count>.size>{});
}

// The segmented form (the segmented blocksort of moderngpu's Segmented Sort and Locality Sort):
// bit j of `heads` marks keys[j] as the first of a segment, and keys never cross a segment's
// start: each segment of the slice ends sorted in place. The same network, with one more test per
// compare-exchange.
template <int Count, class Key, class Values, class Comp>
MERGEPATH_HD void sort_network_segmented(Key (&keys)[Count], Values& values, std::uint32_t heads, int valid,
                                         Comp comp) {
  static_assert(Count <= 32, "a slice's heads fit one 32-bit mask");
  constexpr bool has_values = !std::is_same_v<Values, detail::no_thread_values>;
  MERGEPATH_UNROLL
  for (int round = 0; round < Count; ++round) {
    MERGEPATH_UNROLL
    for (int i = round & 1; i + 1 < Count; i += 2) {
      bool swap = i + 1 < valid && !((heads >> (i + 1)) & 1u) && comp(keys[i + 1], keys[i]);
      detail::swap_if(swap, keys[i], keys[i + 1]);
      if constexpr (has_values) detail::swap_if(swap, values[i], values[i + 1]);
    }
  }
}

template <int Count, class Key, class Comp>
MERGEPATH_HD void sort_network_segmented(Key (&keys)[Count], std::uint32_t heads, int valid, Comp comp) {
  detail::no_thread_values none;
  sort_network_segmented(keys, none, heads, valid, comp);
}

}  // namespace mergepath
