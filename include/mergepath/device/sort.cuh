// sort and sort_pairs on a cuda_context: CUB's radix sort where it orders the keys exactly as comp
// does and the arrays are large enough for it to win, else the merge sort.
#pragma once

#include <type_traits>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../tuning/sort.hpp"
#include "mergesort.cuh"
#include "radix_sort.cuh"

namespace mergepath {
namespace device {

// The radix path needs plain arrays (CUB ping-pongs between two of them) of keys it can order.
template <class KeysIt, class ValsIt, class Comp>
constexpr bool radix_path_applies = std::is_pointer_v<KeysIt> && (std::is_void_v<ValsIt> || std::is_pointer_v<ValsIt>) &&
                                    radix_sortable<kernel::value_of<KeysIt>, Comp>;

}  // namespace device

template <class Policy, class KeysIt, class Comp = less<>>
void sort_tuned(cuda_context& ctx, KeysIt keys, index_t count, Comp comp = {}) {
  detail::require_range("sort", "keys", keys, count);
  if constexpr (device::radix_path_applies<KeysIt, void, Comp>) {
    if (Policy::tuning.takes_radix(count)) {
      device::radix_sort_in_place<Comp>(ctx, keys, static_cast<void*>(nullptr), count);
      return;
    }
  }
  mergesort(ctx, keys, count, comp);
}

// Stable, in place: keys[0, count) end sorted by comp, equal keys in their input order.
template <class KeysIt, class Comp = less<>>
void sort(cuda_context& ctx, KeysIt keys, index_t count, Comp comp = {}) {
  sort_tuned<default_sort_policy<kernel::value_of<KeysIt>>>(ctx, keys, count, comp);
}

template <class Policy, class KeysIt, class ValsIt, class Comp = less<>>
void sort_pairs_tuned(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {}) {
  detail::require_range("sort_pairs", "keys", keys, count);
  detail::require_range("sort_pairs", "vals", vals, count);
  if constexpr (device::radix_path_applies<KeysIt, ValsIt, Comp>) {
    if (Policy::tuning.takes_radix(count)) {
      device::radix_sort_in_place<Comp>(ctx, keys, vals, count);
      return;
    }
  }
  mergesort_pairs(ctx, keys, vals, count, comp);
}

// Stable, in place: vals[i] moves with keys[i].
template <class KeysIt, class ValsIt, class Comp = less<>>
void sort_pairs(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {}) {
  sort_pairs_tuned<default_sort_policy<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>>>(ctx, keys, vals, count,
                                                                                            comp);
}

}  // namespace mergepath
