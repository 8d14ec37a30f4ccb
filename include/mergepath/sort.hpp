// sort and sort_pairs: stable sorts, in place or into other arrays, by the fastest correct method.
//
//   template <class Ctx, class KeysIt, class Comp = less<>>
//   void sort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {});
//
//   template <class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
//   void sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {});
//
// and the same into other arrays, the inputs untouched (outputs equal to the inputs sort in place;
// other overlaps are not allowed):
//
//   void sort_copy(Ctx& ctx, InIt keys_in, index_t count, OutIt keys_out, Comp comp = {});
//   void sort_pairs_copy(Ctx& ctx, KeysIn keys_in, ValsIn vals_in, index_t count,
//                        KeysOut keys_out, ValsOut vals_out, Comp comp = {});
//
// The result is mergesort's: keys[0, count) sorted by comp, equal keys in input order, vals moved
// with their keys. On a GPU, arithmetic keys in a device array under less<> or greater<> (with
// values in a device array, for sort_pairs) go to CUB's radix sort where sort_tuning::takes_radix
// (from radix_min_count keys, and up to any small edge a tuning names): it orders
// them exactly as comp, -0.0 equal to +0.0; NaNs, which no comparator orders, by their bits.
// Every other case, and the CPU, runs the merge sort. A sorted copy costs no more than the sort: on
// a GPU the radix sort's passes or the merge sort's first pass read the input arrays.
// Asynchronous on the GPU, no host round trip (capturable in a CUDA graph).
#pragma once

#include "host/sort.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/sort.cuh"
#endif
