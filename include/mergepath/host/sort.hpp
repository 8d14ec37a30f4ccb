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

}  // namespace mergepath
