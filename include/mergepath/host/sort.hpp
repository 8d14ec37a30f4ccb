// sort and sort_pairs on a host_context: the host merge sort (a radix sort pays on the CPU only
// for long arrays of small keys; the merge sort is the method measured against GNU's parallel mode).
#pragma once

#include "mergesort.hpp"

namespace mergepath {

template <class KeysIt, class Comp = less<>>
void sort(host_context& ctx, KeysIt keys, index_t count, Comp comp = {}) {
  detail::require_range("sort", "keys", keys, count);
  mergesort(ctx, keys, count, comp);
}

template <class KeysIt, class ValsIt, class Comp = less<>>
void sort_pairs(host_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {}) {
  detail::require_range("sort_pairs", "keys", keys, count);
  detail::require_range("sort_pairs", "vals", vals, count);
  mergesort_pairs(ctx, keys, vals, count, comp);
}

// The sorts into other arrays: a copy, then the sort in place there (keys_out may be keys_in).
template <class InIt, class OutIt, class Comp = less<>>
void sort_copy(host_context& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp = {}) {
  detail::require_range("sort_copy", "keys_in", keys_in, count);
  detail::require_range("sort_copy", "keys_out", keys_out, count);
  host::parallel_copy(ctx, keys_in, count, keys_out);
  mergesort(ctx, keys_out, count, comp);
}

template <class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp = less<>>
void sort_pairs_copy(host_context& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out,
                     ValsOut vals_out, Comp comp = {}) {
  detail::require_range("sort_pairs_copy", "keys_in", keys_in, count);
  detail::require_range("sort_pairs_copy", "vals_in", vals_in, count);
  detail::require_range("sort_pairs_copy", "keys_out", keys_out, count);
  detail::require_range("sort_pairs_copy", "vals_out", vals_out, count);
  host::parallel_copy(ctx, keys_in, count, keys_out);
  host::parallel_copy(ctx, vals_in, count, vals_out);
  mergesort_pairs(ctx, keys_out, vals_out, count, comp);
}

}  // namespace mergepath
