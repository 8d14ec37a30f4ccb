// Mergesort (the blocksort and merge passes of moderngpu's Segmented Sort and Locality Sort; the
// framing of the ECE 508 lecture "Parallel Ordered Merge"): sort keys, or keys with values, stably
// and in place.
//
// keys[0, count) end sorted by comp; of equal keys, the one that came first stays first (stable).
// mergesort_pairs moves vals[i] with keys[i]. Any strict weak order, any trivially copyable key and
// value type. Ctx is host_context (host iterators) or cuda_context (device pointers or device
// iterators). O(n log n) work; scratch memory as large as the input comes from the context (on
// the GPU its pool, stream-ordered). Throws std::invalid_argument for a negative count or a null
// pointer with a non-zero count; cuda_error when a CUDA call fails. On a GPU it runs
// asynchronously on ctx.stream() with no host round trip between passes (capturable in a CUDA
// graph); mergesort<Policy> and mergesort_pairs<Policy> take a tuning policy (tuning/mergesort.hpp).
#pragma once

#include "detail/backend.hpp"
#include "host/mergesort.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/mergesort.cuh"
#endif

namespace mergepath {

template <class Policy = default_tuning, class Ctx, class KeysIt, class Comp = less<>>
void mergesort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {}) {
  detail::require_range("mergesort", "keys", keys, count);
  backend::mergesort<Policy>(ctx, keys, count, comp);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
void mergesort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {}) {
  detail::require_range("mergesort_pairs", "keys", keys, count);
  detail::require_range("mergesort_pairs", "vals", vals, count);
  backend::mergesort_pairs<Policy>(ctx, keys, vals, count, comp);
}

}  // namespace mergepath
