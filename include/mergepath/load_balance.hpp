// Load balancing (moderngpu's Vectorized Sorted Search: "load-balancing search ... is a
// straight-forward specialization of vectorized sorted search"): work items [0, count) fall into
// num_segments segments given by segment_starts, the exclusive scan of the segments' sizes (CSR
// row offsets without the last entry). Segment s holds the items
// [segment_starts[s], segment_starts[s + 1]); the last one ends at count; empty segments are
// allowed.
//
//   void load_balancing_search(Ctx& ctx, index_t count, StartsIt segment_starts, index_t num_segments, OutIt out);
//     out[i] = the segment holding item i (the last s with segment_starts[s] <= i).
//   void transform_lbs(Ctx& ctx, Func f, index_t count, StartsIt segment_starts, index_t num_segments);
//     calls f(index, segment, rank) once for every item, rank = index - segment_starts[segment],
//     in no particular order, where ctx computes (a __host__ __device__ functor on a GPU).
//   void interval_expand(ctx, values, count, segment_starts, num_segments, out);   out[i] = values[segment of i]
//   void interval_gather(ctx, in, count, segment_starts, num_segments, gather, out);
//     out[i] = in[gather[segment of i] + rank of i]
//   void interval_scatter(ctx, in, count, segment_starts, num_segments, scatter, out);
//     out[scatter[segment of i] + rank of i] = in[i]
//   void interval_move(ctx, in, count, segment_starts, num_segments, gather, scatter, out);
//     out[scatter[segment of i] + rank of i] = in[gather[segment of i] + rank of i]
//   void segmented_reduce(ctx, values, count, segment_starts, num_segments, out, T init, Op op = plus<>{});
//     out[s] = init op values[first item of s] op ... op values[last item of s]; init when s is empty
//   void transform_segmented_reduce(ctx, f, count, segment_starts, num_segments, out, T init, Op op = plus<>{});
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

#include "host/load_balance.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/load_balance.cuh"
#endif
