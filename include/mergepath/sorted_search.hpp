// Vectorized sorted search (moderngpu's Vectorized Sorted Search): for every element of sorted A,
// its bound in sorted B, in O(A + B) work by walking the Merge Path of A and B (as merge does)
// instead of one binary search per element; the same walk also gives every element of B its bound
// in A, and match flags.
//
// The first form, sorted_search<Bounds>(ctx, a, na, b, nb, a_out): a_out[i] = the lower (upper)
// bound of a[i] in b. The complete form, sorted_search<Bounds, TypeA, TypeB>(..., a_out, b_out): with
// bounds::lower, the lower bound of A into B and the upper bound of B into A; with bounds::upper,
// the upper bound of A into B and the lower bound of B into A. Per side, TypeA / TypeB choose the
// output: search::index the bound; search::match 1 when the other input holds an equal element,
// else 0; search::index_match the bound with the output type's most significant bit set on a
// match (an integer type, and bounds below that bit); search::none nothing (the output may be
// nullptr). It returns how many elements of each side have a match (0 for a side that reports no
// matches); on a GPU that waits for the search to finish, so a call that reports matches
// synchronizes. sorted_equality_count: counts[i] = op(lower_bounds[i], upper bound of a[i] in b);
// the default op gives how many elements of b equal a[i] (a user op such as max(ub - lb, 1) gives
// a left join's row counts).
// Ctx is host_context (host iterators) or cuda_context (device pointers or device iterators).
// Requires: a and b sorted by comp (otherwise the output is unspecified, but nothing is read or
// written out of bounds). Throws std::invalid_argument for a negative count or a null pointer
// with a non-zero count, and in checked mode for unsorted input (naming the first position out
// of order, before anything is written); cuda_error when a CUDA call fails.
#pragma once

#include "detail/backend.hpp"
#include "host/sorted_search.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/sorted_search.cuh"
#endif

namespace mergepath {

template <bounds Bounds, search TypeA, search TypeB, class Policy = default_tuning, class Ctx, class AIt, class BIt,
          class AOut, class BOut, class Comp = less<>>
match_counts sorted_search(Ctx& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, BOut b_out,
                           Comp comp = {}) {
  detail::require_search_ranges<TypeA, TypeB>(a, a_count, b, b_count, a_out, b_out);
  backend::check_merge_inputs(ctx, "sorted_search", a, a_count, b, b_count, comp);
  return backend::sorted_search<Bounds, TypeA, TypeB, Policy>(ctx, a, a_count, b, b_count, a_out, b_out, comp);
}

template <bounds Bounds = bounds::lower, class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
void sorted_search(Ctx& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt a_out, Comp comp = {}) {
  sorted_search<Bounds, search::index, search::none>(ctx, a, a_count, b, b_count, a_out, nullptr, comp);
}

template <class Ctx, class AIt, class BIt, class LowerIt, class OutIt, class Comp = less<>,
          class Op = equality_count_op>
void sorted_equality_count(Ctx& ctx, AIt a, index_t a_count, BIt b, index_t b_count, LowerIt lower_bounds, OutIt counts,
                           Comp comp = {}, Op op = {}) {
  detail::require_equality_count_ranges(a, a_count, b, b_count, lower_bounds, counts);
  backend::check_merge_inputs(ctx, "sorted_equality_count", a, a_count, b, b_count, comp);
  backend::sorted_equality_count(ctx, a, a_count, b, b_count, lower_bounds, counts, comp, op);
}

}  // namespace mergepath
