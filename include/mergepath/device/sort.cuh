// sort, sort_pairs, sort_copy and sort_pairs_copy on a cuda_context: CUB's radix sort where it
// orders the keys exactly as comp does and the arrays' size lets it win, else the merge sort.
#pragma once

#include <type_traits>

#include "../context.hpp"
#include "../detail/backend.hpp"
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

// The calls of sort.hpp on a cuda_context, arguments already checked: Policy names the tuning (a
// type with `static constexpr sort_tuning tuning`).
template <class Policy = default_tuning, class KeysIt, class Comp>
void sort(cuda_context& ctx, KeysIt keys, index_t count, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_sort_policy<kernel::value_of<KeysIt>>>;
  if constexpr (radix_path_applies<KeysIt, void, Comp>) {
    if (tuned::tuning.takes_radix(count)) {
      radix_sort_in_place<Comp>(ctx, keys, static_cast<void*>(nullptr), count);
      return;
    }
  }
  device::mergesort(ctx, keys, count, comp);
}

template <class Policy = default_tuning, class KeysIt, class ValsIt, class Comp>
void sort_pairs(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_sort_policy<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>>>;
  if constexpr (radix_path_applies<KeysIt, ValsIt, Comp>) {
    if (tuned::tuning.takes_radix(count)) {
      radix_sort_in_place<Comp>(ctx, keys, vals, count);
      return;
    }
  }
  device::mergesort_pairs(ctx, keys, vals, count, comp);
}

// Into other arrays: the radix sort's passes or the merge sort's first pass read the inputs.
template <class Policy = default_tuning, class InIt, class OutIt, class Comp>
void sort_copy(cuda_context& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_sort_policy<kernel::value_of<OutIt>>>;
  if constexpr (radix_path_applies<InIt, void, Comp> && std::is_pointer_v<OutIt>) {
    if (tuned::tuning.takes_radix(count, sort_lands::in_other_arrays)) {
      radix_sort_copy<Comp>(ctx, keys_in, static_cast<const void*>(nullptr), keys_out, static_cast<void*>(nullptr),
                            count);
      return;
    }
  }
  detail::with_tuning_family([&](auto family) {
    launch_mergesort<mergesort_policy_for<kernel::value_of<OutIt>, void, family>>(
        ctx, keys_in, kernel::no_values{}, keys_out, kernel::no_values{}, count, comp);
  });
}

template <class Policy = default_tuning, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
void sort_pairs_copy(cuda_context& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out,
                     ValsOut vals_out, Comp comp) {
  using tuned = detail::tuning_or<Policy, default_sort_policy<kernel::value_of<KeysOut>, kernel::value_of<ValsOut>>>;
  if constexpr (radix_path_applies<KeysIn, ValsIn, Comp> && std::is_pointer_v<KeysOut> && std::is_pointer_v<ValsOut>) {
    if (tuned::tuning.takes_radix(count, sort_lands::in_other_arrays)) {
      radix_sort_copy<Comp>(ctx, keys_in, vals_in, keys_out, vals_out, count);
      return;
    }
  }
  detail::with_tuning_family([&](auto family) {
    launch_mergesort<mergesort_policy_for<kernel::value_of<KeysOut>, kernel::value_of<ValsOut>, family>>(
        ctx, keys_in, vals_in, keys_out, vals_out, count, comp);
  });
}

}  // namespace device

namespace backend {
using device::sort;
using device::sort_copy;
using device::sort_pairs;
using device::sort_pairs_copy;
}  // namespace backend
}  // namespace mergepath
