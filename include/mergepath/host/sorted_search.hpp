// sorted_search and sorted_equality_count on a host_context: Merge Path splits the search's path
// evenly over the threads, and each thread runs serial_search on its share; plain bounds of a few
// needles in a long b gallop from needle to needle instead.
#pragma once

#include <type_traits>
#include <utility>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/binary_search.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_search.hpp"
#include "../tuning/sorted_search.hpp"
#include "cache_size.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// a_out[i] = the bound of a[i] in b for a few needles in a long b: each thread takes a run of
// needles, binary-searches the first in all of b and gallops from each bound to the next
// (thread::gallop_bound), so it reads ~2 log2 of each gap instead of walking all of b.
template <bounds Bounds, class AIt, class BIt, class AOut, class Comp>
void gallop_search(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, Comp comp) {
  const index_t chunks = chunk_count(ctx, a_count * host_gallop_work_per_needle);
  parallel_for(ctx, chunks, [&](index_t c) {
    const index_t begin = a_count * c / chunks, end = a_count * (c + 1) / chunks;
    index_t bound = 0;
    for (index_t i = begin; i < end; ++i) {
      bound = i == begin ? binary_search_bound<Bounds>(b, b_count, a[i], comp)
                         : gallop_bound<Bounds>(b, bound, b_count, a[i], comp);
      a_out[i] = search_result<search::index, search_output_t<AOut>>(bound, false);
    }
  });
}

// How many times longer than a b must be for a's plain bounds to gallop (tuning/sorted_search.hpp):
// fewer where b fits the last-level cache, whose reads cost galloping less than memory's.
template <class BIt>
index_t gallop_ratio(index_t b_count) {
  using Key = std::decay_t<decltype(std::declval<BIt>()[0])>;
  return host_gallop_ratio(static_cast<std::size_t>(b_count) * sizeof(Key), last_level_cache_bytes());
}

// The complete search of sorted_search.hpp on a host_context, arguments already checked (Policy:
// a GPU tuning, unused).
template <bounds Bounds, search TypeA, search TypeB, class Policy = default_tuning, class AIt, class BIt, class AOut,
          class BOut, class Comp>
match_counts sorted_search(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out,
                           BOut b_out, Comp comp) {
  if constexpr (TypeA == search::index && TypeB == search::none)
    if (a_count > 0 && b_count / gallop_ratio<BIt>(b_count) >= a_count) {
      gallop_search<Bounds>(ctx, a, a_count, b, b_count, a_out, comp);
      return {};
    }
  const index_t chunks = chunk_count(ctx, a_count + b_count);
  std::vector<match_counts> matches(static_cast<std::size_t>(chunks));
  for_each_merge_chunk<Bounds>(
      ctx, a, a_count, b, b_count, comp, [&](index_t c, index_t a0, index_t a1, index_t b0, index_t b1, index_t) {
        matches[static_cast<std::size_t>(c)] =
            serial_search<Bounds, TypeA, TypeB>(a, a_count, b, b_count, a0, a1, b0, b1, a_out, b_out, comp);
      });
  match_counts sum;
  for (const match_counts& m : matches) sum.a += m.a, sum.b += m.b;
  return sum;
}

// counts[i] = op(lower_bounds[i], upper bound of a[i] in b): the upper-bound search writes through
// an output that applies op.
template <class AIt, class BIt, class LowerIt, class OutIt, class Comp, class Op>
void sorted_equality_count(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, LowerIt lower_bounds,
                           OutIt counts, Comp comp, Op op) {
  sorted_search<bounds::upper, search::index, search::none>(
      ctx, a, a_count, b, b_count, detail::equality_count_output<LowerIt, OutIt, Op>{lower_bounds, counts, op}, nullptr,
      comp);
}

}  // namespace host

namespace backend {
using host::sorted_equality_count;
using host::sorted_search;
}  // namespace backend
}  // namespace mergepath
