// sort and sort_pairs: stable sorts in place that pick the fastest correct method.
//
//   template <class Ctx, class KeysIt, class Comp = less<>>
//   void sort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {});
//
//   template <class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
//   void sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {});
//
// The result is mergesort's: keys[0, count) sorted by comp, equal keys in input order, vals moved
// with their keys. On a GPU, arithmetic keys in a device array under less<> or greater<> (with
// values in a device array, for sort_pairs) go to CUB's radix sort where sort_tuning::takes_radix
// (from radix_min_count keys, and 4-byte keys without values up to radix_max_small_count): it orders
// them exactly as comp, -0.0 equal to +0.0; NaNs, which no comparator orders, by their bits.
// Every other case, and the CPU, runs the merge sort.
// Asynchronous on the GPU, no host round trip (capturable in a CUDA graph).
#pragma once

#include "host/sort.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/sort.cuh"
#endif
