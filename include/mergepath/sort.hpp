// sort and sort_pairs: stable sorts, in place or into other arrays, by the fastest correct method.
//
// sort and sort_pairs sort in place; sort_copy and sort_pairs_copy into other arrays, the inputs
// untouched (outputs equal to the inputs sort in place; other overlaps are not allowed).
// The result is mergesort's: keys[0, count) sorted by comp, equal keys in input order, vals moved
// with their keys. On a GPU, arithmetic keys in a device array under less<> or greater<> (with
// values in a device array, for sort_pairs) go to CUB's radix sort where sort_tuning::takes_radix
// (from radix_min_count keys, and up to any small edge a tuning names): it orders
// them exactly as comp, -0.0 equal to +0.0; NaNs, which no comparator orders, by their bits.
// Every other case, and the CPU, runs the merge sort. A sorted copy costs no more than the sort: on
// a GPU the radix sort's passes or the merge sort's first pass read the input arrays.
// Asynchronous on the GPU, no host round trip (capturable in a CUDA graph); sort<Policy> and the
// others take a tuning policy (tuning/sort.hpp).
#pragma once

#include "detail/backend.hpp"
#include "host/sort.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/sort.cuh"
#endif

namespace mergepath {

template <class Policy = default_tuning, class Ctx, class KeysIt, class Comp = less<>>
void sort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {}) {
  detail::require_range("sort", "keys", keys, count);
  backend::sort<Policy>(ctx, keys, count, comp);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
void sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {}) {
  detail::require_range("sort_pairs", "keys", keys, count);
  detail::require_range("sort_pairs", "vals", vals, count);
  backend::sort_pairs<Policy>(ctx, keys, vals, count, comp);
}

template <class Policy = default_tuning, class Ctx, class InIt, class OutIt, class Comp = less<>>
void sort_copy(Ctx& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp = {}) {
  detail::require_range("sort_copy", "keys_in", keys_in, count);
  detail::require_range("sort_copy", "keys_out", keys_out, count);
  backend::sort_copy<Policy>(ctx, keys_in, count, keys_out, comp);
}

template <class Policy = default_tuning, class Ctx, class KeysIn, class ValsIn, class KeysOut, class ValsOut,
          class Comp = less<>>
void sort_pairs_copy(Ctx& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out, ValsOut vals_out,
                     Comp comp = {}) {
  detail::require_range("sort_pairs_copy", "keys_in", keys_in, count);
  detail::require_range("sort_pairs_copy", "vals_in", vals_in, count);
  detail::require_range("sort_pairs_copy", "keys_out", keys_out, count);
  detail::require_range("sort_pairs_copy", "vals_out", vals_out, count);
  backend::sort_pairs_copy<Policy>(ctx, keys_in, vals_in, count, keys_out, vals_out, comp);
}

}  // namespace mergepath
