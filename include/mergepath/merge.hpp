// Merge (Programming Massively Parallel Processors ch. 12; the ECE 508 lecture): merge two sorted sequences into one,
// stable.
//
// out[0, a_count + b_count) receives a and b in the order `comp` gives; of equal keys, those of a
// come first, each input's in its own order (stable). merge_pairs moves each value with its key.
// Ctx is host_context (host iterators) or cuda_context (device pointers or device iterators).
// O(a_count + b_count) work; the output must not overlap the inputs.
// Requires: a and b sorted by comp (otherwise the output is unspecified, but nothing is read or
// written out of bounds). Throws std::invalid_argument for a negative count or a null pointer
// with a non-zero count, and in checked mode for unsorted input (naming the first position
// out of order, before anything is written); cuda_error when a CUDA call fails.
// On a GPU it runs asynchronously on ctx.stream() (capturable in a CUDA graph) unless checked
// mode is on; merge<Policy> and merge_pairs<Policy> take a tuning policy (tuning/merge.hpp).
#pragma once

#include "detail/backend.hpp"
#include "host/merge.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/merge.cuh"
#endif

namespace mergepath {

template <class Policy = default_tuning, class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
void merge(Ctx& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail::require_range("merge", "a", a, a_count);
  detail::require_range("merge", "b", b, b_count);
  detail::require_range("merge", "out", out, a_count + b_count);
  backend::check_merge_inputs(ctx, "merge", a, a_count, b, b_count, comp);
  backend::merge<Policy>(ctx, a, a_count, b, b_count, out, comp);
}

template <class Policy = default_tuning, class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys,
          class OutVals, class Comp = less<>>
void merge_pairs(Ctx& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals, index_t b_count,
                 OutKeys out_keys, OutVals out_vals, Comp comp = {}) {
  detail::require_range("merge_pairs", "a_keys", a_keys, a_count);
  detail::require_range("merge_pairs", "a_vals", a_vals, a_count);
  detail::require_range("merge_pairs", "b_keys", b_keys, b_count);
  detail::require_range("merge_pairs", "b_vals", b_vals, b_count);
  detail::require_range("merge_pairs", "out_keys", out_keys, a_count + b_count);
  detail::require_range("merge_pairs", "out_vals", out_vals, a_count + b_count);
  backend::check_merge_inputs(ctx, "merge_pairs", a_keys, a_count, b_keys, b_count, comp);
  backend::merge_pairs<Policy>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace mergepath
