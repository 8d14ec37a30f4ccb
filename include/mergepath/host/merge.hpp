// merge and merge_pairs on a host_context: Merge Path splits the output evenly over the
// threads, and each thread runs serial_merge on its share.
#pragma once

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

template <class AIt, class BIt, class Comp>
void check_merge_inputs(const host_context& ctx, const char* algorithm, AIt a, index_t a_count, BIt b, index_t b_count,
                        Comp comp) {
  if (!ctx.checked()) return;
  if (index_t i = first_unsorted(ctx, a, a_count, comp); i >= 0) detail::throw_unsorted(algorithm, "a", i);
  if (index_t i = first_unsorted(ctx, b, b_count, comp); i >= 0) detail::throw_unsorted(algorithm, "b", i);
}

// Calls merge_chunk(a_begin, a_end, b_begin, b_end, out_begin) once per thread's share: spans
// of the Merge Path whose ties go as Bounds says.
template <bounds Bounds = bounds::lower, class AIt, class BIt, class Comp, class MergeChunk>
void for_each_merge_chunk(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, Comp comp,
                          MergeChunk merge_chunk) {
  index_t total = a_count + b_count;
  index_t chunks = chunk_count(ctx, total);
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t diag0 = total * c / chunks;
    index_t diag1 = total * (c + 1) / chunks;
    index_t a0 = merge_path<Bounds>(a, a_count, b, b_count, diag0, comp);
    index_t a1 = merge_path<Bounds>(a, a_count, b, b_count, diag1, comp);
    a1 = clamp_next_split(a0, a1, diag0, diag1);
    merge_chunk(a0, a1, diag0 - a0, diag1 - a1, diag0);
  });
}

}  // namespace host

template <class AIt, class BIt, class OutIt, class Comp = less<>>
void merge(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail::require_range("merge", "a", a, a_count);
  detail::require_range("merge", "b", b, b_count);
  detail::require_range("merge", "out", out, a_count + b_count);
  host::check_merge_inputs(ctx, "merge", a, a_count, b, b_count, comp);
  host::for_each_merge_chunk(ctx, a, a_count, b, b_count, comp,
                             [&](index_t a0, index_t a1, index_t b0, index_t b1, index_t out0) {
                               serial_merge_chained(a + a0, a1 - a0, b + b0, b1 - b0, out + out0, comp);
                             });
}

template <class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp = less<>>
void merge_pairs(host_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                 index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp = {}) {
  detail::require_range("merge_pairs", "a_keys", a_keys, a_count);
  detail::require_range("merge_pairs", "a_vals", a_vals, a_count);
  detail::require_range("merge_pairs", "b_keys", b_keys, b_count);
  detail::require_range("merge_pairs", "b_vals", b_vals, b_count);
  detail::require_range("merge_pairs", "out_keys", out_keys, a_count + b_count);
  detail::require_range("merge_pairs", "out_vals", out_vals, a_count + b_count);
  host::check_merge_inputs(ctx, "merge_pairs", a_keys, a_count, b_keys, b_count, comp);
  host::for_each_merge_chunk(ctx, a_keys, a_count, b_keys, b_count, comp,
                             [&](index_t a0, index_t a1, index_t b0, index_t b1, index_t out0) {
                               serial_merge_pairs_chained(a_keys + a0, a_vals + a0, a1 - a0, b_keys + b0, b_vals + b0,
                                                          b1 - b0, out_keys + out0, out_vals + out0, comp);
                             });
}

}  // namespace mergepath
