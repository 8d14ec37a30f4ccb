// sorted_search and sorted_equality_count on a host_context: Merge Path splits the search's path
// evenly over the threads, and each thread runs serial_search on its share.
#pragma once

#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_search.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

template <bounds Bounds, search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut, class Comp>
match_counts sorted_search(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out,
                           BOut b_out, Comp comp) {
  index_t total = a_count + b_count;
  index_t chunks = chunk_count(ctx, total);
  std::vector<match_counts> matches(static_cast<std::size_t>(chunks));
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t diag0 = total * c / chunks;
    index_t diag1 = total * (c + 1) / chunks;
    index_t a0 = merge_path<Bounds>(a, a_count, b, b_count, diag0, comp);
    index_t a1 = clamp_next_split(a0, merge_path<Bounds>(a, a_count, b, b_count, diag1, comp), diag0, diag1);
    matches[static_cast<std::size_t>(c)] =
        serial_search<Bounds, TypeA, TypeB>(a, a_count, b, b_count, a0, a1, diag0 - a0, diag1 - a1, a_out, b_out, comp);
  });
  match_counts sum;
  for (const match_counts& m : matches) sum.a += m.a, sum.b += m.b;
  return sum;
}

}  // namespace host

// The complete sorted search on the CPU (sorted_search.hpp).
template <bounds Bounds, search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut, class Comp = less<>>
match_counts sorted_search(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, BOut b_out,
                           Comp comp = {}) {
  detail::require_search_ranges<TypeA, TypeB>(a, a_count, b, b_count, a_out, b_out);
  host::check_merge_inputs(ctx, "sorted_search", a, a_count, b, b_count, comp);
  return host::sorted_search<Bounds, TypeA, TypeB>(ctx, a, a_count, b, b_count, a_out, b_out, comp);
}

// a_out[i] = the lower (or upper) bound of a[i] in b, on the CPU.
template <bounds Bounds = bounds::lower, class AIt, class BIt, class OutIt, class Comp = less<>>
void sorted_search(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt a_out, Comp comp = {}) {
  sorted_search<Bounds, search::index, search::none>(ctx, a, a_count, b, b_count, a_out, nullptr, comp);
}

// counts[i] = op(lower_bounds[i], upper bound of a[i] in b), on the CPU.
template <class AIt, class BIt, class LowerIt, class OutIt, class Comp = less<>, class Op = equality_count_op>
void sorted_equality_count(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, LowerIt lower_bounds,
                           OutIt counts, Comp comp = {}, Op op = {}) {
  detail::require_equality_count_ranges(a, a_count, b, b_count, lower_bounds, counts);
  host::check_merge_inputs(ctx, "sorted_equality_count", a, a_count, b, b_count, comp);
  host::sorted_search<bounds::upper, search::index, search::none>(
      ctx, a, a_count, b, b_count, detail::equality_count_output<LowerIt, OutIt, Op>{lower_bounds, counts, op}, nullptr,
      comp);
}

}  // namespace mergepath
