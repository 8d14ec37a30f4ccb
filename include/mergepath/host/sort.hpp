// sort and sort_pairs on a host_context: the host merge sort (a radix sort pays on the CPU only
// for long arrays of small keys; the merge sort is the method measured against GNU's parallel mode).
#pragma once

#include "mergesort.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// The calls of sort.hpp on a host_context, arguments already checked; the sorts into other
// arrays copy, then sort in place there (keys_out may be keys_in). Policy: unused.
template <class Policy, class KeysIt, class Comp>
void sort(host_context& ctx, KeysIt keys, index_t count, Comp comp) {
  host::mergesort<Policy>(ctx, keys, count, comp);
}

template <class Policy, class KeysIt, class ValsIt, class Comp>
void sort_pairs(host_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp) {
  host::mergesort_pairs<Policy>(ctx, keys, vals, count, comp);
}

template <class Policy, class InIt, class OutIt, class Comp>
void sort_copy(host_context& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp) {
  parallel_copy(ctx, keys_in, count, keys_out);
  host::mergesort<Policy>(ctx, keys_out, count, comp);
}

template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
void sort_pairs_copy(host_context& ctx, KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out,
                     ValsOut vals_out, Comp comp) {
  parallel_copy(ctx, keys_in, count, keys_out);
  parallel_copy(ctx, vals_in, count, vals_out);
  host::mergesort_pairs<Policy>(ctx, keys_out, vals_out, count, comp);
}

}  // namespace host

namespace backend {
using host::sort;
using host::sort_copy;
using host::sort_pairs;
using host::sort_pairs_copy;
}  // namespace backend
}  // namespace mergepath
