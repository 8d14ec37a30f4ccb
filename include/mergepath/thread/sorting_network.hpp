// sort_network: one thread sorts a few keys held in registers (a GPU thread's slice of a
// blocksort, a CPU thread's smallest runs). Shared by both backends.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../detail/config.hpp"

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

// The segmented form (seed 003's segmented blocksort): bit j of `heads` marks keys[j] as the first
// of a segment, and keys never cross a segment's start: each segment of the slice ends sorted in
// place. The same network, with one more test per compare-exchange.
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
