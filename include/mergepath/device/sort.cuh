// sort, sort_pairs, sort_copy and sort_pairs_copy on a cuda_context: CUB's radix sort where it
// orders the keys exactly as comp does and the arrays' size lets it win, else the merge sort.
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

template <class Policy, class InIt, class OutIt, class Comp = less<>>
void sort_copy_tuned(cuda_context& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp = {}) {
  detail::require_range("sort_copy", "keys_in", keys_in, count);
  detail::require_range("sort_copy", "keys_out", keys_out, count);
  if constexpr (device::radix_path_applies<InIt, void, Comp> && std::is_pointer_v<OutIt>) {
    if (Policy::tuning.takes_radix(count, sort_lands::in_other_arrays)) {
      device::radix_sort_copy<Comp>(ctx, keys_in, static_cast<const void*>(nullptr), keys_out,
                                    static_cast<void*>(nullptr), count);
      return;
    }
  }
  detail::with_tuning_family([&](auto family) {
    device::launch_mergesort<mergesort_policy_for<kernel::value_of<OutIt>, void, family>>(
        ctx, keys_in, kernel::no_values{}, keys_out, kernel::no_values{}, count, comp);
  });
}

// Stable, into other arrays: keys_out[0, count) = keys_in[0, count) sorted by comp, the input
// untouched (keys_out may be keys_in; other overlaps are not allowed).
template <class InIt, class OutIt, class Comp = less<>>
void sort_copy(cuda_context& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp = {}) {
  sort_copy_tuned<default_sort_policy<kernel::value_of<OutIt>>>(ctx, keys_in, count, keys_out, comp);
}

template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp = less<>>
void sort_pairs_copy_tuned(cuda_context& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out,
                           ValsOut vals_out, Comp comp = {}) {
  detail::require_range("sort_pairs_copy", "keys_in", keys_in, count);
  detail::require_range("sort_pairs_copy", "vals_in", vals_in, count);
  detail::require_range("sort_pairs_copy", "keys_out", keys_out, count);
  detail::require_range("sort_pairs_copy", "vals_out", vals_out, count);
  if constexpr (device::radix_path_applies<KeysIn, ValsIn, Comp> && std::is_pointer_v<KeysOut> &&
                std::is_pointer_v<ValsOut>) {
    if (Policy::tuning.takes_radix(count, sort_lands::in_other_arrays)) {
      device::radix_sort_copy<Comp>(ctx, keys_in, vals_in, keys_out, vals_out, count);
      return;
    }
  }
  detail::with_tuning_family([&](auto family) {
    device::launch_mergesort<mergesort_policy_for<kernel::value_of<KeysOut>, kernel::value_of<ValsOut>, family>>(
        ctx, keys_in, vals_in, keys_out, vals_out, count, comp);
  });
}

// Stable, into other arrays: vals_out[i] is the value that came with keys_out[i].
template <class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp = less<>>
void sort_pairs_copy(cuda_context& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out,
                     ValsOut vals_out, Comp comp = {}) {
  sort_pairs_copy_tuned<default_sort_policy<kernel::value_of<KeysOut>, kernel::value_of<ValsOut>>>(
      ctx, keys_in, vals_in, count, keys_out, vals_out, comp);
}

}  // namespace mergepath
