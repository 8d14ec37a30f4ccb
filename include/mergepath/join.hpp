// Relational joins of sorted (merge_join) or unsorted (sort_merge_join) keys, built as moderngpu's
// Vectorized Sorted Search sketches them: vectorized sorted search finds each row's partners,
// load-balancing search expands the pairs.
//
// join_kind is inner, left, right, full_outer, left_semi or left_anti (thread/join.hpp).
//
// merge_join: a and b sorted by comp. The result holds every pair (i, j) with a[i] equivalent to
// b[j]; left adds (i, -1) for each a row without a partner, right adds (-1, j) for each such b
// row, full_outer both; left_semi holds the a rows that have a partner, left_anti those that have
// none (a_index only, b_index() is nullptr). Rows are ordered by key, then a row, then b row.
// sort_merge_join sorts copies of a and b stably with their row numbers (the caller's arrays are
// not touched), then joins them; its indices name rows of the caller's a and b, in the same order.
//
// join_result<Ctx, Index> owns the rows' a_index() and b_index() arrays (size() rows each) in the
// memory where the context computes: host memory for host_context; device memory from the
// context's pool for cuda_context, released stream-ordered on its stream (so the result must not
// outlive the context). Movable, not copyable.
//
// How: a sorted search gives each a row the lower bound of its key in b, and (right, full_outer)
// each b row its upper bound in a; sorted_equality_count turns the upper bounds into each a row's
// output rows; a scan of those counts places them, and transform_lbs writes the pairs, so a key
// repeated thousands of times on both sides is spread over all threads like any other work.
// O(a_count + b_count + output rows) work.
//
// Index: a signed integer type that holds a_count and b_count (int32 halves the output's bytes);
// the output's size is 64-bit either way. Requires for merge_join a and b sorted by comp;
// otherwise the result is unspecified but nothing outside a, b and the result is read or written.
// Throws std::invalid_argument for a negative count, a null pointer with a non-zero count, an
// Index too narrow, and in checked mode (ctx.set_checked(true)) for unsorted input to merge_join,
// naming the first position out of order; cuda_error when a CUDA call fails. On a GPU the call
// returns once the output's size is known: the rows are written asynchronously on ctx.stream().
#pragma once

#include "detail/backend.hpp"
#include "host/join.hpp"
#include "thread/join.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/join.cuh"
#endif

namespace mergepath {
namespace detail {

template <class Index, class AIt, class BIt>
void check_join_call(const char* algorithm, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count) {
  require_range(algorithm, "a", a, a_count);
  require_range(algorithm, "b", b, b_count);
  require_join_index<Index>(algorithm, a_count, b_count);
}

}  // namespace detail

template <join_kind Kind = join_kind::inner, class Index = std::int64_t, class Ctx, class AIt, class BIt,
          class Comp = less<>>
join_result<Ctx, Index> merge_join(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, Comp comp = {}) {
  detail::check_join_call<Index>("merge_join", a, a_count, b, b_count);
  backend::check_merge_inputs(ctx, "merge_join", a, a_count, b, b_count, comp);
  return backend::join_sorted<Kind, Index>(ctx, a, a_count, b, b_count, detail::identity_rows{},
                                           detail::identity_rows{}, comp);
}

template <join_kind Kind = join_kind::inner, class Index = std::int64_t, class Ctx, class AIt, class BIt,
          class Comp = less<>>
join_result<Ctx, Index> sort_merge_join(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count,
                                        Comp comp = {}) {
  detail::check_join_call<Index>("sort_merge_join", a, a_count, b, b_count);
  return backend::sort_merge_join<Kind, Index>(ctx, a, a_count, b, b_count, comp);
}

}  // namespace mergepath
