// Set operations on sorted multisets: element for element what std::set_union,
// std::set_intersection, std::set_difference and std::set_symmetric_difference produce, including
// which copies of equivalent elements are taken. Of a key held m times in a and n times in b:
// union writes a's m copies, then b's last max(n - m, 0); intersection a's first min(m, n);
// difference a's last max(m - n, 0); symmetric difference a's last m - n or b's last n - m.
//
//   std::int64_t set_union(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, OutIt out,
//                          Comp comp = {});
//   set_intersection, set_difference, set_symmetric_difference: the same shape
//   std::int64_t set_union_by_key(Ctx& ctx, AKeys a_keys, AVals a_vals, std::int64_t a_count, BKeys b_keys,
//                                 BVals b_vals, std::int64_t b_count, OutKeys out_keys, OutVals out_vals,
//                                 Comp comp = {});
//   set_intersection_by_key, set_difference_by_key, set_symmetric_difference_by_key: the same shape
//
// Each returns how many elements it wrote; out has room for a_count + b_count (union, symmetric
// difference) or a_count (intersection, difference). The _by_key forms move each kept key's value
// with it (like Thrust's). Ctx is host_context (host iterators) or cuda_context (device pointers
// or device iterators); keys of any trivially copyable type, ordered by comp.
//
// How: one pass over the walk std::set_* make (equivalent keys consumed as a pair). Points of the
// walk found by Merge Path and moved within the run of equivalent keys they cut (set_path) split it
// into independent shares: tiles on a GPU (then per thread inside a tile's shared memory), one per
// thread on the CPU. A GPU tile counts its output, a scan of the counts places it, and the tile
// writes it compacted; a CPU thread steps four walks together, first counting what each keeps,
// then (once a scan has placed them) writing it. O(a_count + b_count) work.
//
// Requires a and b sorted by comp; otherwise the result is unspecified but nothing outside a, b
// and out's capacity is read or written. Throws std::invalid_argument for a negative count or a null
// pointer with a non-zero count, and in checked mode (ctx.set_checked(true)) for unsorted input,
// naming the first position out of order, before anything is written; cuda_error when a CUDA call
// fails. On a GPU the call waits for the count, not for the output to be written.
#pragma once

#include <cstddef>
#include <cstdint>

#include "detail/backend.hpp"
#include "functional.hpp"
#include "host/set_operations.hpp"
#include "thread/set_operations.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/set_operations.cuh"
#endif

namespace mergepath {
namespace detail {

// The checks every set operation makes (counts, pointers, checked mode), then the backend's walk.
template <set_op Op, class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
index_t run_set_operation(Ctx& ctx, const char* algorithm, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys,
                          BVals b_vals, index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  require_set_operation_ranges<Op>(algorithm, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals);
  backend::check_merge_inputs(ctx, algorithm, a_keys, a_count, b_keys, b_count, comp);
  return backend::set_operation<Op>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace detail

template <class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
std::int64_t set_union(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, OutIt out, Comp comp = {}) {
  return detail::run_set_operation<set_op::union_>(ctx, "set_union", a, nullptr, a_count, b, nullptr, b_count, out,
                                                   nullptr, comp);
}

template <class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp = less<>>
std::int64_t set_union_by_key(Ctx& ctx, AKeys a_keys, AVals a_vals, std::int64_t a_count, BKeys b_keys, BVals b_vals,
                              std::int64_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp = {}) {
  return detail::run_set_operation<set_op::union_>(ctx, "set_union_by_key", a_keys, a_vals, a_count, b_keys, b_vals,
                                                   b_count, out_keys, out_vals, comp);
}

template <class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
std::int64_t set_intersection(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, OutIt out,
                              Comp comp = {}) {
  return detail::run_set_operation<set_op::intersection>(ctx, "set_intersection", a, nullptr, a_count, b, nullptr,
                                                         b_count, out, nullptr, comp);
}

template <class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp = less<>>
std::int64_t set_intersection_by_key(Ctx& ctx, AKeys a_keys, AVals a_vals, std::int64_t a_count, BKeys b_keys,
                                     BVals b_vals, std::int64_t b_count, OutKeys out_keys, OutVals out_vals,
                                     Comp comp = {}) {
  return detail::run_set_operation<set_op::intersection>(ctx, "set_intersection_by_key", a_keys, a_vals, a_count,
                                                         b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

template <class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
std::int64_t set_difference(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, OutIt out,
                            Comp comp = {}) {
  return detail::run_set_operation<set_op::difference>(ctx, "set_difference", a, nullptr, a_count, b, nullptr, b_count,
                                                       out, nullptr, comp);
}

template <class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp = less<>>
std::int64_t set_difference_by_key(Ctx& ctx, AKeys a_keys, AVals a_vals, std::int64_t a_count, BKeys b_keys,
                                   BVals b_vals, std::int64_t b_count, OutKeys out_keys, OutVals out_vals,
                                   Comp comp = {}) {
  return detail::run_set_operation<set_op::difference>(ctx, "set_difference_by_key", a_keys, a_vals, a_count, b_keys,
                                                       b_vals, b_count, out_keys, out_vals, comp);
}

template <class Ctx, class AIt, class BIt, class OutIt, class Comp = less<>>
std::int64_t set_symmetric_difference(Ctx& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count, OutIt out,
                                      Comp comp = {}) {
  return detail::run_set_operation<set_op::symmetric_difference>(ctx, "set_symmetric_difference", a, nullptr, a_count,
                                                                 b, nullptr, b_count, out, nullptr, comp);
}

template <class Ctx, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp = less<>>
std::int64_t set_symmetric_difference_by_key(Ctx& ctx, AKeys a_keys, AVals a_vals, std::int64_t a_count, BKeys b_keys,
                                             BVals b_vals, std::int64_t b_count, OutKeys out_keys, OutVals out_vals,
                                             Comp comp = {}) {
  return detail::run_set_operation<set_op::symmetric_difference>(ctx, "set_symmetric_difference_by_key", a_keys, a_vals,
                                                                 a_count, b_keys, b_vals, b_count, out_keys, out_vals,
                                                                 comp);
}

}  // namespace mergepath
