// The set operations on a host_context: the walk (thread/set_operations.hpp) is cut into one
// share per thread at set_path's points; each thread writes its share's output where the share's
// inputs begin (it never writes more elements than it consumes; keys alone in plain arrays through
// std::set_*), then the shares after the first move down to close the gaps.
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/set_operations.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// Keys-only calls pass nullptr for the values.
template <class Vals>
constexpr bool has_values = !std::is_same_v<Vals, std::nullptr_t>;

// One share's walk for keys alone in plain arrays: the standard library's own loop, which keeps the same elements
// (the same copies of equivalent keys) as serial_set_operation. libstdc++'s set_difference loop
// is the faster one (2^22 + 2^22 int32 on 2 threads: 1.63-1.73x -> 1.92x std::set_difference;
// the other three as fast either way).
template <set_op Op, class AIt, class BIt, class OutIt, class Comp>
OutIt standard_set_operation(AIt a_first, AIt a_last, BIt b_first, BIt b_last, OutIt out, Comp comp) {
  if constexpr (Op == set_op::union_) return std::set_union(a_first, a_last, b_first, b_last, out, comp);
  if constexpr (Op == set_op::intersection)
    return std::set_intersection(a_first, a_last, b_first, b_last, out, comp);
  if constexpr (Op == set_op::difference) return std::set_difference(a_first, a_last, b_first, b_last, out, comp);
  if constexpr (Op == set_op::symmetric_difference)
    return std::set_symmetric_difference(a_first, a_last, b_first, b_last, out, comp);
}

template <set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
index_t set_operation(const host_context& ctx, AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals,
                      index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  const index_t total = a_count + b_count;
  const index_t chunks = chunk_count(ctx, total);
  std::vector<set_split<index_t>> splits(static_cast<std::size_t>(chunks) + 1);
  parallel_for(ctx, chunks + 1, [&](index_t c) {
    splits[static_cast<std::size_t>(c)] = set_path(a_keys, a_count, b_keys, b_count, total * c / chunks, comp);
  });
  for (std::size_t c = 1; c < splits.size(); ++c) {  // monotone whatever the data (shares never overlap)
    splits[c].a = std::max(splits[c].a, splits[c - 1].a);
    splits[c].b = std::max(splits[c].b, splits[c - 1].b);
  }
  // Where share c writes first: intersection and difference output only elements of a.
  auto base = [&](index_t c) {
    const set_split<index_t>& s = splits[static_cast<std::size_t>(c)];
    return detail::keeps_b_only(Op) ? s.a + s.b : s.a;
  };
  std::vector<index_t> written(static_cast<std::size_t>(chunks));
  parallel_for(ctx, chunks, [&](index_t c) {
    const set_split<index_t> s0 = splits[static_cast<std::size_t>(c)], s1 = splits[static_cast<std::size_t>(c) + 1];
    index_t k = base(c);
    if constexpr (!has_values<OutVals> && std::is_pointer_v<AKeys> && std::is_pointer_v<BKeys> &&
                  std::is_pointer_v<OutKeys>) {
      const auto end = standard_set_operation<Op>(a_keys + s0.a, a_keys + s1.a, b_keys + s0.b, b_keys + s1.b,
                                                  out_keys + k, comp);
      written[static_cast<std::size_t>(c)] = static_cast<index_t>(end - (out_keys + k));
      return;
    }
    written[static_cast<std::size_t>(c)] =
        serial_set_operation<Op>(a_keys, s0.a, s1.a, b_keys, s0.b, s1.b, comp, [&](bool from_b, index_t i) {
          out_keys[k] = from_b ? b_keys[i] : a_keys[i];
          if constexpr (has_values<OutVals>) out_vals[k] = from_b ? b_vals[i] : a_vals[i];
          ++k;
        });
  });
  index_t offset = written[0];
  for (index_t c = 1; c < chunks; ++c) {  // offset <= base(c): each move goes down
    const index_t from = base(c), n = written[static_cast<std::size_t>(c)];
    if (from != offset)
      for (index_t k = 0; k < n; ++k) {  // forward: the ranges may overlap, the move goes down
        out_keys[offset + k] = out_keys[from + k];
        if constexpr (has_values<OutVals>) out_vals[offset + k] = out_vals[from + k];
      }
    offset += n;
  }
  return offset;
}

}  // namespace host

namespace detail {

// The entry points' shared checks (set_operations.hpp): counts, pointers, checked mode.
template <set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
index_t run_set_operation(host_context& ctx, const char* algorithm, AKeys a_keys, AVals a_vals, index_t a_count,
                          BKeys b_keys, BVals b_vals, index_t b_count, OutKeys out_keys, OutVals out_vals, Comp comp) {
  require_set_operation_ranges<Op>(algorithm, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals);
  host::check_merge_inputs(ctx, algorithm, a_keys, a_count, b_keys, b_count, comp);
  return host::set_operation<Op>(ctx, a_keys, a_vals, a_count, b_keys, b_vals, b_count, out_keys, out_vals, comp);
}

}  // namespace detail
}  // namespace mergepath
