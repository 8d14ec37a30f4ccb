// merge_join and sort_merge_join on a host_context: the sorted searches give each row of a its
// partners in b, a scan places its output rows, and transform_lbs writes them (thread/join.hpp).
#pragma once

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
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

// One chunk's output rows from a single walk: the first `room` straight into the result (the first
// chunk's, whose offset is known: 0), the rest into blocks of its own, and past `limit` rows only
// counted (its caller walks such a chunk again). Pointer cursors: the rows' stores cannot alias them.
template <class Index, bool HasB>
class chunk_rows {
 public:
  struct segment {
    const Index* a;
    const Index* b;
    index_t rows;
  };
  chunk_rows() = default;
  chunk_rows(Index* a, Index* b, index_t room, index_t limit) : limit_(limit) {
    if (room > 0) open(a, b, detail::min_of(room, limit));
  }
  void push(Index a_row, Index b_row) {
    if (a_at_ == a_end_) next(1);
    *a_at_++ = a_row;
    if constexpr (HasB) *b_at_++ = b_row;
  }
  // Room for n rows at a_slots(), b_slots(), written there before take(count) keeps the first count.
  void reserve(index_t n) {
    if (a_end_ - a_at_ < n) next(n);
  }
  Index* a_slots() const { return a_at_; }
  Index* b_slots() const { return b_at_; }
  void take(index_t n) {
    a_at_ += n;
    if constexpr (HasB) b_at_ += n;
  }
  // Past the limit: rows are only counted, n at a time.
  bool dropping() const { return dropping_; }
  void drop(index_t n) { dropped_ += n; }
  void finish() { close(); }
  index_t rows() const { return stored_ + dropped_; }
  bool complete() const { return dropped_ == 0; }
  const std::vector<segment>& segments() const { return segments_; }

 private:
  static constexpr index_t block_rows = index_t{1} << 14;  // 64 KiB of int32: few allocations, little waste
  void open(Index* a, Index* b, index_t size) {
    a_begin_ = a_at_ = a;
    a_end_ = a + size;
    b_begin_ = b_at_ = b;
  }
  void close() {
    const index_t rows = a_at_ - a_begin_;
    if (dropping_)
      dropped_ += rows;
    else if (rows > 0)
      segments_.push_back({a_begin_, b_begin_, rows}), stored_ += rows;
    a_begin_ = a_at_ = a_end_ = nullptr;
  }
  void next(index_t at_least) {
    close();
    dropping_ = stored_ >= limit_;
    const index_t size =
        dropping_ ? block_rows : detail::max_of(at_least, detail::min_of(block_rows, limit_ - stored_));
    detail::host_buffer<Index>& block = dropping_ ? scratch_ : blocks_.emplace_back(size * (HasB ? 2 : 1));
    if (block.data() == nullptr) block = detail::host_buffer<Index>(size * (HasB ? 2 : 1));  // the scratch, once
    open(block.data(), HasB ? block.data() + size : nullptr, size);
  }
  Index *a_at_ = nullptr, *a_end_ = nullptr, *b_at_ = nullptr, *a_begin_ = nullptr, *b_begin_ = nullptr;
  index_t limit_ = 0, stored_ = 0, dropped_ = 0;
  bool dropping_ = false;
  std::vector<segment> segments_;
  std::vector<detail::host_buffer<Index>> blocks_;
  detail::host_buffer<Index> scratch_;  // where the rows past the limit go, overwritten
};

// A sequential merge join of one chunk into chunk_rows: the rows of a rows [a_begin, a_end) and
// (keeps_lone_b kinds) the lone b rows [b_begin, b_end), in output order; lower is a[a_begin]'s
// lower bound in b. Few mispredicted branches (a branch per case measured slower): the lower
// bound moves 4 keys at a time, counted without a branch, and each a row's first rows are
// written before knowing how many it makes (its first two partners; left and full
// outer: (i, -1) in the first slot where it has none; semi and anti: the row itself). The lone b
// rows before a[i] are those from the last a row's upper bound to a[i]'s lower bound. For any
// data only a[0, a_end) and b[0, b_count) are read, and the same call makes the same rows.
template <join_kind Kind, class Index, bool HasB, class AIt, class BIt, class Comp, class ARow, class BRow>
void chunk_join_walk(AIt a, index_t a_begin, index_t a_end, BIt b, index_t b_count, index_t lower, index_t b_begin,
                     index_t b_end, Comp comp, ARow a_row, BRow b_row, chunk_rows<Index, HasB>& out) {
  constexpr index_t step = 4;
  constexpr bool semi_or_anti = Kind == join_kind::left_semi || Kind == join_kind::left_anti;
  index_t lo = lower, hi = lower;
  index_t lone = b_begin;  // the next b row that may be lone (keeps_lone_b kinds)
  for (index_t i = a_begin; i < a_end; ++i) {
    const auto key = a[i];  // a copy: the rows' stores could alias a[i]
    while (lo + step <= b_count) {
      index_t before = 0;  // sorted: the keys before key are a prefix of the 4
      for (index_t w = 0; w < step; ++w) before += comp(b[lo + w], key) ? 1 : 0;
      lo += before;
      if (before < step) break;
    }
    while (lo < b_count && comp(b[lo], key)) ++lo;
    if constexpr (detail::keeps_lone_b(Kind))
      for (const index_t end = detail::min_of(lo, b_end); lone < end; ++lone) out.push(Index(-1), b_row(lone));
    if constexpr (semi_or_anti) {  // one row or none: whether b[lo] is key's
      const bool matched = lo < b_count && !comp(key, b[lo]);
      out.reserve(1);
      *out.a_slots() = a_row(i);
      out.take(matched == (Kind == join_kind::left_semi) ? 1 : 0);
      continue;
    }
    index_t r = lo;           // the next partner to emit
    if (lo + 2 <= b_count) {  // most keys have at most two partners
      out.reserve(2);
      const index_t partners = (comp(key, b[lo]) ? 0 : 1) + (comp(key, b[lo + 1]) ? 0 : 1);
      Index *x = out.a_slots(), *y = out.b_slots();
      x[0] = x[1] = a_row(i);
      y[0] = detail::keeps_lone_a(Kind) && partners == 0 ? Index(-1) : b_row(lo);
      y[1] = b_row(lo + 1);
      out.take(detail::keeps_lone_a(Kind) ? detail::max_of(partners, index_t{1}) : partners);
      r += partners;
      if (partners < 2) {
        lone = detail::max_of(lone, r);
        continue;
      }
    }
    hi = detail::max_of(hi, r);  // a repeated key keeps its upper bound
    while (hi < b_count && !comp(key, b[hi])) ++hi;
    lone = detail::max_of(lone, hi);
    if constexpr (detail::keeps_lone_a(Kind))
      if (hi == lo) out.push(a_row(i), Index(-1));  // only near b's end: else written above
    for (; r < hi; ++r) {
      if (out.dropping()) {
        out.drop(hi - r);
        break;
      }
      out.push(a_row(i), b_row(r));
    }
  }
  if constexpr (detail::keeps_lone_b(Kind))
    for (; lone < b_end; ++lone) out.push(Index(-1), b_row(lone));
}

// The join in chunks of equal a + b (merge path splits), each walked once (chunk_join_walk) into
// chunk_rows: the first chunk into the result itself, the others into blocks copied into place in
// parallel once the chunks' row counts give their offsets (a copy costs far less than a second
// walk). Returns false where one chunk holds half again a thread's share of the rows (key groups,
// or far more rows than inputs): join_by_rows then balances the rows themselves.
template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
bool join_by_chunks(const host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, ARows a_rows, BRows b_rows,
                    Comp comp, join_result<host_context, Index>& result) {
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

  // The result sized for the usual joins (semi and anti joins make at most a row per a row); a
  // larger one is allocated once the rows are counted. Untouched, its excess costs no memory.
  constexpr bool has_b = detail::has_b_index(Kind);
  const index_t room = has_b ? a_count + b_count : a_count;
  detail::host_buffer<Index> a_out(room), b_out(has_b ? room : 0);
  // Past its share of the inputs (plus a margin) a chunk only counts its rows: key groups are walked
  // again into place, or left to join_by_rows, without storing millions of rows first.
  const index_t limit = (a_count + b_count) / chunks + (index_t{1} << 16);
  // Both walks of a chunk (below) take this one, so that the second makes the rows the first
  // counted, whatever the data.
  auto walk = [&](index_t c, chunk_rows<Index, has_b>& out) {
    chunk_join_walk<Kind>(
        a, a_begin[c], a_begin[c + 1], b, b_count, lower[c], b_begin[c], b_begin[c + 1], comp,
        [&](index_t i) { return static_cast<Index>(a_rows[i]); },
        [&](index_t j) { return static_cast<Index>(b_rows[j]); }, out);  // rows >= 0: no -1 test
    out.finish();
  };
  std::vector<chunk_rows<Index, has_b>> rows(static_cast<std::size_t>(chunks));
  parallel_for(ctx, chunks, [&](index_t c) {
    // Filled on the stack: the chunks' cursors side by side would share cache lines.
    chunk_rows<Index, has_b> out(c == 0 ? a_out.data() : nullptr, c == 0 ? b_out.data() : nullptr, c == 0 ? room : 0,
                                 limit);
    walk(c, out);
    rows[static_cast<std::size_t>(c)] = std::move(out);
  });
  std::vector<index_t> offsets(static_cast<std::size_t>(chunks) + 1, 0);
  index_t most = 0;
  for (index_t c = 0; c < chunks; ++c) {
    const index_t n = rows[static_cast<std::size_t>(c)].rows();
    most = detail::max_of(most, n), offsets[c + 1] = offsets[c] + n;
  }
  const index_t total = offsets[chunks], share = total / ctx.num_threads();
  if (most > share + share / 2 + (index_t{1} << 18)) return false;  // a thread would write 1.5 shares

  // Where the result outgrew its room, a new one (the first chunk's rows are copied from the old).
  detail::host_buffer<Index> a_res = total <= room ? std::move(a_out) : detail::host_buffer<Index>(total);
  detail::host_buffer<Index> b_res = !has_b || total <= room ? std::move(b_out) : detail::host_buffer<Index>(total);
  // The stored rows' copies, in pieces of at most a block for the threads to share evenly.
  struct piece {
    const Index* a;
    const Index* b;
    index_t rows, to;
  };
  std::vector<piece> pieces;
  constexpr index_t piece_rows = index_t{1} << 14;
  for (index_t c = 0; c < chunks; ++c) {
    if (!rows[static_cast<std::size_t>(c)].complete()) continue;
    index_t to = offsets[c];
    for (const auto& s : rows[static_cast<std::size_t>(c)].segments()) {
      if (s.a != a_res.data() + to)  // else already in place
        for (index_t k = 0; k < s.rows; k += piece_rows)
          pieces.push_back({s.a + k, has_b ? s.b + k : nullptr, detail::min_of(piece_rows, s.rows - k), to + k});
      to += s.rows;
    }
  }
  parallel_for(ctx, static_cast<index_t>(pieces.size()), [&](index_t p) {
    const piece& x = pieces[static_cast<std::size_t>(p)];
    std::copy(x.a, x.a + x.rows, a_res.data() + x.to);
    if constexpr (has_b) std::copy(x.b, x.b + x.rows, b_res.data() + x.to);
  });
  // A chunk that stopped storing is walked again, straight into place.
  const bool all_stored = std::all_of(rows.begin(), rows.end(), [](const auto& r) { return r.complete(); });
  if (!all_stored)
    parallel_for(ctx, chunks, [&](index_t c) {
      if (rows[static_cast<std::size_t>(c)].complete()) return;
      const index_t n = offsets[c + 1] - offsets[c];
      Index *a_to = a_res.data() + offsets[c], *b_to = has_b ? b_res.data() + offsets[c] : nullptr;
      chunk_rows<Index, has_b> out(a_to, b_to, n, n);  // never more than n rows in place
      walk(c, out);
      // A reserve at the room's end puts the last few rows in a block of their own.
      index_t at = 0;
      for (const auto& s : out.segments()) {
        const index_t take = detail::min_of(s.rows, n - at);
        if (s.a != a_to + at) {
          std::copy(s.a, s.a + take, a_to + at);
          if constexpr (has_b) std::copy(s.b, s.b + take, b_to + at);
        }
        at += take;
      }
      // Fewer rows than the first walk counted only where comp answered otherwise (a random
      // comparator): the first walk's first row fills the rest, so that no row is left unwritten.
      const auto& first = rows[static_cast<std::size_t>(c)].segments().front();  // it stored rows before dropping
      std::fill(a_to + at, a_to + n, *first.a);
      if constexpr (has_b) std::fill(b_to + at, b_to + n, *first.b);
    });
  result = {total, std::move(a_res), std::move(b_res), has_b};
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
        a,   a_count, b, upper.data(), a_starts.data(), lone_b_before.data(), total, b_rows, a_out.data(), b_out.data(),
        comp};
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
    sort_keys_and_values(ctx, keys.data(), rows.data(), count, comp);
  }
};

// sort_merge_join of join.hpp on a host_context, arguments already checked: sorted copies of
// both inputs with their row numbers, joined.
template <join_kind Kind, class Index, class AIt, class BIt, class Comp>
join_result<host_context, Index> sort_merge_join(host_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                                                 Comp comp) {
  sorted_rows<Index, AIt, Comp> sa(ctx, a, a_count, comp), sb(ctx, b, b_count, comp);
  return join_sorted<Kind, Index>(ctx, sa.keys.data(), a_count, sb.keys.data(), b_count, sa.rows(), sb.rows(), comp);
}

}  // namespace host

namespace backend {
using host::join_sorted;
using host::sort_merge_join;
}  // namespace backend
}  // namespace mergepath
