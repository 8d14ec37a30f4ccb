// Load balancing (moderngpu's Vectorized Sorted Search: "load-balancing search ... is a
// straight-forward specialization of vectorized sorted search"): work items [0, count) fall into
// num_segments segments given by segment_starts, the exclusive scan of the segments' sizes (CSR
// row offsets without the last entry). Segment s holds the items
// [segment_starts[s], segment_starts[s + 1]); the last one ends at count; empty segments are
// allowed.
//
//   load_balancing_search(ctx, count, segment_starts, num_segments, out):
//     out[i] = the segment holding item i (the last s with segment_starts[s] <= i).
//   transform_lbs(ctx, f, count, segment_starts, num_segments):
//     calls f(index, segment, rank) once for every item, rank = index - segment_starts[segment],
//     in no particular order, where ctx computes (a __host__ __device__ functor on a GPU).
//   interval_expand(ctx, values, count, segment_starts, num_segments, out);   out[i] = values[segment of i]
//   interval_gather(ctx, in, count, segment_starts, num_segments, gather, out);
//     out[i] = in[gather[segment of i] + rank of i]
//   interval_scatter(ctx, in, count, segment_starts, num_segments, scatter, out);
//     out[scatter[segment of i] + rank of i] = in[i]
//   interval_move(ctx, in, count, segment_starts, num_segments, gather, scatter, out);
//     out[scatter[segment of i] + rank of i] = in[gather[segment of i] + rank of i]
//   segmented_reduce(ctx, values, count, segment_starts, num_segments, out, T init, Op op = plus<>{});
//     out[s] = init op values[first item of s] op ... op values[last item of s]; init when s is empty
//   transform_segmented_reduce(ctx, f, count, segment_starts, num_segments, out, T init, Op op = plus<>{});
//     the same over f(index) instead of values[index] (CSR SpMV: f(j) = vals[j] * x[cols[j]])
//
// How: the Merge Path of segment_starts against the items (start s precedes item i when
// segment_starts[s] <= i) is cut into equal shares of starts plus items, and each share is
// walked serially. So every share costs the same however the segments are shaped (one giant
// segment among tiny ones, runs of empty segments), and nothing of size count is read but what
// the call itself reads (values for the reductions): load_balancing_search reads only the starts.
// O(count + num_segments) work. On a GPU a share is a tile in shared memory; the reductions read
// each item once and join the partials of segments that cross tiles afterwards, so op must be
// associative but need not be commutative (items combine in their order). Any trivially copyable
// T. Floating-point sums may differ from a sequential loop's in rounding (a different association).
//
// Requires segment_starts non-decreasing, segment_starts[0] == 0 and each <= count. Malformed
// starts (any values, the type's minimum and maximum included) give an unspecified result but
// never an access outside starts[0, num_segments), out, values[0, count) or values[0,
// num_segments) (interval_expand); the segments and ranks passed to f stay in [0, num_segments)
// and [0, count). On a host_context every output is still written (load_balancing_search's each
// in [-1, num_segments)) and f is called once for every item (docs/load_balance.md). gather and
// scatter must address the element ranges the segments' sizes imply.
// Throws std::invalid_argument for a negative count or num_segments, items without segments
// (num_segments == 0 < count), a null pointer with a non-zero count, and in checked mode
// (ctx.set_checked(true)) for malformed starts, naming the first bad position, before anything is
// written (on a GPU that costs a pass over the starts and a synchronization); cuda_error when a
// CUDA call fails. No call synchronizes otherwise: GPU calls can be captured in a CUDA graph.
#pragma once

#include "detail/backend.hpp"
#include "host/load_balance.hpp"
#include "thread/load_balance.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/load_balance.cuh"
#endif

namespace mergepath {
namespace detail {

// The checks of the interval calls that move in[0, count) to out[0, count).
template <class Ctx, class InIt, class StartsIt, class OutIt>
void check_interval_call(Ctx& ctx, const char* algorithm, InIt in, index_t count, StartsIt segment_starts,
                         index_t num_segments, OutIt out) {
  backend::check_segments(ctx, algorithm, count, segment_starts, num_segments);
  require_range(algorithm, "in", in, count);
  require_range(algorithm, "out", out, count);
}

}  // namespace detail

template <class Policy = default_tuning, class Ctx, class Func, class StartsIt>
void transform_lbs(Ctx& ctx, Func f, index_t count, StartsIt segment_starts, index_t num_segments) {
  backend::check_segments(ctx, "transform_lbs", count, segment_starts, num_segments);
  backend::transform_lbs<Policy>(ctx, f, count, segment_starts, num_segments);
}

template <class Ctx, class StartsIt, class OutIt>
void load_balancing_search(Ctx& ctx, index_t count, StartsIt segment_starts, index_t num_segments, OutIt out) {
  backend::check_segments(ctx, "load_balancing_search", count, segment_starts, num_segments);
  detail::require_range("load_balancing_search", "out", out, count);
  backend::load_balancing_search(ctx, count, segment_starts, num_segments, out);
}

template <class Ctx, class ValuesIt, class StartsIt, class OutIt>
void interval_expand(Ctx& ctx, ValuesIt values, index_t count, StartsIt segment_starts, index_t num_segments,
                     OutIt out) {
  backend::check_segments(ctx, "interval_expand", count, segment_starts, num_segments);
  detail::require_range("interval_expand", "values", values, num_segments);
  detail::require_range("interval_expand", "out", out, count);
  backend::interval_expand(ctx, values, count, segment_starts, num_segments, out);
}

template <class Ctx, class InIt, class StartsIt, class GatherIt, class OutIt>
void interval_gather(Ctx& ctx, InIt in, index_t count, StartsIt segment_starts, index_t num_segments, GatherIt gather,
                     OutIt out) {
  detail::check_interval_call(ctx, "interval_gather", in, count, segment_starts, num_segments, out);
  detail::require_range("interval_gather", "gather", gather, num_segments);
  using from_gather = segment_table_position<GatherIt>;
  backend::transform_lbs(ctx, copy_intervals<InIt, from_gather, item_position, OutIt>{in, {gather}, {}, out}, count,
                         segment_starts, num_segments);
}

template <class Ctx, class InIt, class StartsIt, class ScatterIt, class OutIt>
void interval_scatter(Ctx& ctx, InIt in, index_t count, StartsIt segment_starts, index_t num_segments,
                      ScatterIt scatter, OutIt out) {
  detail::check_interval_call(ctx, "interval_scatter", in, count, segment_starts, num_segments, out);
  detail::require_range("interval_scatter", "scatter", scatter, num_segments);
  using to_scatter = segment_table_position<ScatterIt>;
  backend::transform_lbs(ctx, copy_intervals<InIt, item_position, to_scatter, OutIt>{in, {}, {scatter}, out}, count,
                         segment_starts, num_segments);
}

template <class Ctx, class InIt, class StartsIt, class GatherIt, class ScatterIt, class OutIt>
void interval_move(Ctx& ctx, InIt in, index_t count, StartsIt segment_starts, index_t num_segments, GatherIt gather,
                   ScatterIt scatter, OutIt out) {
  detail::check_interval_call(ctx, "interval_move", in, count, segment_starts, num_segments, out);
  detail::require_range("interval_move", "gather", gather, num_segments);
  detail::require_range("interval_move", "scatter", scatter, num_segments);
  using from_gather = segment_table_position<GatherIt>;
  using to_scatter = segment_table_position<ScatterIt>;
  backend::transform_lbs(ctx, copy_intervals<InIt, from_gather, to_scatter, OutIt>{in, {gather}, {scatter}, out}, count,
                         segment_starts, num_segments);
}

template <class Policy = default_tuning, class Ctx, class Func, class StartsIt, class OutIt, class T, class Op = plus<>>
void transform_segmented_reduce(Ctx& ctx, Func f, index_t count, StartsIt segment_starts, index_t num_segments,
                                OutIt out, T init, Op op = {}) {
  backend::check_segments(ctx, "transform_segmented_reduce", count, segment_starts, num_segments);
  detail::require_range("transform_segmented_reduce", "out", out, num_segments);
  backend::segmented_reduce<Policy>(ctx, f, count, segment_starts, num_segments, out, init, op);
}

template <class Ctx, class InIt, class StartsIt, class OutIt, class T, class Op = plus<>>
void segmented_reduce(Ctx& ctx, InIt values, index_t count, StartsIt segment_starts, index_t num_segments, OutIt out,
                      T init, Op op = {}) {
  backend::check_segments(ctx, "segmented_reduce", count, segment_starts, num_segments);
  detail::require_range("segmented_reduce", "values", values, count);
  detail::require_range("segmented_reduce", "out", out, num_segments);
  backend::segmented_reduce(ctx, value_at_as<InIt, T>{values}, count, segment_starts, num_segments, out, init, op);
}

}  // namespace mergepath
