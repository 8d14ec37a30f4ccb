// merge_join and sort_merge_join on a host_context: the sorted searches give each row of a its
// partners in b, a scan places its output rows, and transform_lbs writes them (thread/join.hpp).
#pragma once

#include <iterator>
#include <vector>

#include "../context.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/binary_search.hpp"
#include "../thread/join.hpp"
#include "../thread/merge_path.hpp"
#include "load_balance.hpp"
#include "merge.hpp"
#include "mergesort.hpp"
#include "parallel.hpp"
#include "sorted_search.hpp"

namespace mergepath {
namespace detail {
template <class T>
struct owned_array<host_context, T> {
  using type = host_buffer<T>;
};
}  // namespace detail

namespace host {

// x[0, count) = the exclusive scan of value(0, count); x[count] = the total, which it returns.
// Two parallel passes: the chunks' sums, then each chunk's scan from its offset.
template <class Value>
index_t exclusive_scan(const host_context& ctx, index_t count, Value value, index_t* x) {
  const index_t chunks = chunk_count(ctx, count);
  std::vector<index_t> sums(static_cast<std::size_t>(chunks) + 1, 0);
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t sum = 0;
    for (index_t i = count * c / chunks, end = count * (c + 1) / chunks; i < end; ++i) sum += value(i);
    sums[static_cast<std::size_t>(c) + 1] = sum;
  });
  for (index_t c = 0; c < chunks; ++c) sums[c + 1] += sums[c];
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t sum = sums[static_cast<std::size_t>(c)];
    for (index_t i = count * c / chunks, end = count * (c + 1) / chunks; i < end; ++i) {
      const index_t v = value(i);  // value may read x[i]: read before the write
      x[i] = sum;
      sum += v;
    }
  });
  x[count] = sums[static_cast<std::size_t>(chunks)];
  return x[count];
}

// lower[i] = the first b not ordered before a[i], rows[i] = a row i's output rows (join_row_count),
// for every a row: one merge walk a chunk of a, its two cursors into b set at the chunk's first
// row by binary search. (Two sorted searches did this in twice the time of a sequential join.)
template <join_kind Kind, class Index, class AIt, class BIt, class Comp>
void count_a_rows(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, Index* lower, index_t* rows,
                  Comp comp) {
  const detail::join_row_count<Kind, Index> row_count;
  const index_t chunks = chunk_count(ctx, a_count);
  parallel_for(ctx, chunks, [&](index_t c) {
    const index_t begin = a_count * c / chunks, end = a_count * (c + 1) / chunks;
    if (begin == end) return;
    index_t lo = binary_search_bound<bounds::lower>(b, b_count, a[begin], comp), hi = lo;
    for (index_t i = begin; i < end; ++i) {
      detail::advance_partner_bounds(a[i], b, b_count, lo, hi, comp);
      lower[i] = static_cast<Index>(lo);
      rows[i] = row_count(lo, hi);
    }
  });
}

// The join in chunks of equal a + b (merge path splits), each walked twice by serial_merge_join:
// once to count its rows, once to write them from its offset. No per-row arrays: it moves little
// more than the sequential join. Returns false, having allocated nothing, where one chunk holds
// half again a thread's share of the rows (key groups, or far more rows than inputs): join_by_rows
// then balances the rows themselves.
template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
bool join_by_chunks(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, ARows a_rows,
                    BRows b_rows, Comp comp, join_result<host_context, Index>& result) {
  const index_t chunks = chunk_count(ctx, a_count + b_count);
  // Chunk c: a rows [a_begin[c], a_begin[c + 1]), lone b rows [b_begin[c], b_begin[c + 1]);
  // lower[c] = a_begin[c]'s lower bound in b. Kept monotonic so that unsorted input stays in bounds.
  std::vector<index_t> a_begin(static_cast<std::size_t>(chunks) + 1), b_begin(a_begin.size()), lower(a_begin.size());
  for (index_t c = 0; c <= chunks; ++c) {
    const index_t diag = c == chunks ? a_count + b_count : (a_count + b_count) * c / chunks;
    index_t i = merge_path(a, a_count, b, b_count, diag, comp);
    if (c > 0) i = detail::max_of(i, a_begin[c - 1]);
    a_begin[c] = i;
    lower[c] = i < a_count ? binary_search_bound<bounds::lower>(b, b_count, a[i], comp) : b_count;
    b_begin[c] = c == 0 ? 0 : c == chunks ? b_count : detail::max_of(lower[c], b_begin[c - 1]);
  }
  auto walk = [&](index_t c, auto&& emit) {
    detail::serial_merge_join<Kind>(a, a_begin[c], a_begin[c + 1], b, b_count, lower[c], b_begin[c], b_begin[c + 1],
                                    comp, emit);
  };
  std::vector<index_t> offsets(static_cast<std::size_t>(chunks) + 1, 0);
  parallel_for(ctx, chunks, [&](index_t c) {
    index_t rows = 0;
    walk(c, [&](index_t, index_t) { ++rows; });
    offsets[c + 1] = rows;
  });
  index_t most = 0;
  for (index_t c = 0; c < chunks; ++c) most = detail::max_of(most, offsets[c + 1]), offsets[c + 1] += offsets[c];
  const index_t total = offsets[chunks], share = total / ctx.num_threads();
  if (most > share + share / 2 + (index_t{1} << 18)) return false;  // a thread would write 1.5 shares

  constexpr bool has_b = detail::has_b_index(Kind);
  detail::host_buffer<Index> a_out(total), b_out(has_b ? total : 0);
  parallel_for(ctx, chunks, [&](index_t c) {
    Index *a_row = a_out.data() + offsets[c], *b_row = b_out.data() + (has_b ? offsets[c] : 0);
    walk(c, [&](index_t i, index_t j) {
      *a_row++ = i < 0 ? Index(-1) : static_cast<Index>(a_rows[i]);
      if constexpr (has_b) *b_row++ = j < 0 ? Index(-1) : static_cast<Index>(b_rows[j]);
    });
  });
  result = {total, std::move(a_out), std::move(b_out), has_b};
  return true;
}

// The join balanced by output rows: each a row's partners and output rows, a scan of those, then
// transform_lbs over the rows (many-to-many key groups split across threads).
template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
join_result<host_context, Index> join_by_rows(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                                              ARows a_rows, BRows b_rows, Comp comp) {
  constexpr bool lone_b = detail::keeps_lone_b(Kind);
  // Each a row's lower bound in b and output rows, then their offsets; (lone_b) the upper bound
  // of each b in a.
  std::vector<Index> lower(static_cast<std::size_t>(a_count)), upper(lone_b ? static_cast<std::size_t>(b_count) : 0);
  std::vector<index_t> a_starts(static_cast<std::size_t>(a_count) + 1);
  if constexpr (lone_b) {
    // Both bounds from one merge walk, so that even unsorted input places every row exactly once.
    host::sorted_search<bounds::lower, search::index, search::index>(ctx, a, a_count, b, b_count, lower.data(),
                                                                     upper.data(), comp);
    host::sorted_search<bounds::upper, search::index, search::none>(
        ctx, a, a_count, b, b_count,
        detail::equality_count_output<const Index*, index_t*, detail::join_row_count<Kind, Index>>{
            lower.data(), a_starts.data(), {}},
        nullptr, comp);
  } else {
    count_a_rows<Kind>(ctx, a, a_count, b, b_count, lower.data(), a_starts.data(), comp);
  }
  const index_t a_total = exclusive_scan(
      ctx, a_count, [&](index_t i) { return a_starts[i]; }, a_starts.data());
  std::vector<index_t> lone_b_before(lone_b ? static_cast<std::size_t>(b_count) + 1 : 0);
  index_t b_total = 0;
  if constexpr (lone_b)
    b_total = exclusive_scan(
        ctx, b_count, [&](index_t j) { return index_t{detail::is_lone_b(a, b, j, upper[j], comp)}; },
        lone_b_before.data());

  const index_t total = a_total + b_total;
  detail::host_buffer<Index> a_out(total), b_out(detail::has_b_index(Kind) ? total : 0);
  detail::join_row_writer<Kind, Index, AIt, BIt, ARows, BRows, Comp> write_rows{
      a, b, b_count, lower.data(), lone_b_before.data(), a_rows, b_rows, a_out.data(), b_out.data(), comp};
  if (a_total > 0) host::transform_lbs(ctx, write_rows, a_total, a_starts.data(), a_count);
  if constexpr (lone_b) {
    detail::lone_b_writer<Index, AIt, BIt, BRows, Comp> write_lone{
        a, b, upper.data(), a_starts.data(), lone_b_before.data(), b_rows, a_out.data(), b_out.data(), comp};
    const index_t chunks = chunk_count(ctx, b_count);
    parallel_for(ctx, chunks, [&](index_t c) {
      for (index_t j = b_count * c / chunks, end = b_count * (c + 1) / chunks; j < end; ++j) write_lone(j);
    });
  }
  return {total, std::move(a_out), std::move(b_out), detail::has_b_index(Kind)};
}

template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
join_result<host_context, Index> join_sorted(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                                             ARows a_rows, BRows b_rows, Comp comp) {
  join_result<host_context, Index> result;
  if (join_by_chunks<Kind>(ctx, a, a_count, b, b_count, a_rows, b_rows, comp, result)) return result;
  return join_by_rows<Kind, Index>(ctx, a, a_count, b, b_count, a_rows, b_rows, comp);
}

// Copies of x with their row numbers, sorted stably by key; 32-bit row numbers where they fit.
template <class Index, class It, class Comp>
struct sorted_rows {
  std::vector<typename std::iterator_traits<It>::value_type> keys;
  std::vector<std::int32_t> narrow_rows;
  std::vector<Index> wide_rows;
  sorted_rows(host_context& ctx, It x, index_t count, Comp comp) : keys(x, x + count) {
    if (detail::rows_fit_int32(count))
      sort_with_rows(ctx, count, narrow_rows, comp);
    else
      sort_with_rows(ctx, count, wide_rows, comp);
  }
  detail::sorted_row_numbers<Index> rows() const {
    return {narrow_rows.empty() ? nullptr : narrow_rows.data(), wide_rows.data()};
  }

 private:
  template <class Row>
  void sort_with_rows(host_context& ctx, index_t count, std::vector<Row>& rows, Comp comp) {
    rows.resize(static_cast<std::size_t>(count));
    for (index_t i = 0; i < count; ++i) rows[static_cast<std::size_t>(i)] = static_cast<Row>(i);
    mergesort_pairs(ctx, keys.data(), rows.data(), count, comp);
  }
};

}  // namespace host

template <join_kind Kind = join_kind::inner, class Index = std::int64_t, class AIt, class BIt, class Comp = less<>>
join_result<host_context, Index> merge_join(host_context& ctx, AIt a, std::int64_t a_count, BIt b, std::int64_t b_count,
                                            Comp comp = {}) {
  detail::require_range("merge_join", "a", a, a_count);
  detail::require_range("merge_join", "b", b, b_count);
  detail::require_join_index<Index>("merge_join", a_count, b_count);
  host::check_merge_inputs(ctx, "merge_join", a, a_count, b, b_count, comp);
  return host::join_sorted<Kind, Index>(ctx, a, a_count, b, b_count, detail::identity_rows{}, detail::identity_rows{},
                                        comp);
}

template <join_kind Kind = join_kind::inner, class Index = std::int64_t, class AIt, class BIt, class Comp = less<>>
join_result<host_context, Index> sort_merge_join(host_context& ctx, AIt a, std::int64_t a_count, BIt b,
                                                 std::int64_t b_count, Comp comp = {}) {
  detail::require_range("sort_merge_join", "a", a, a_count);
  detail::require_range("sort_merge_join", "b", b, b_count);
  detail::require_join_index<Index>("sort_merge_join", a_count, b_count);
  host::sorted_rows<Index, AIt, Comp> sa(ctx, a, a_count, comp), sb(ctx, b, b_count, comp);
  return host::join_sorted<Kind, Index>(ctx, sa.keys.data(), a_count, sb.keys.data(), b_count,
                                        sa.rows(), sb.rows(), comp);
}

}  // namespace mergepath
