// The load-balancing family on a host_context: the path through (segment starts, items) is split
// evenly over the threads by Merge Path, and each thread walks its share (thread/load_balance.hpp).
#pragma once

#include <iterator>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/load_balance.hpp"
#include "merge.hpp"
#include "parallel.hpp"

namespace mergepath {
namespace host {

// Argument checks, then (checked mode) the starts' data precondition, before anything is written.
template <class StartsIt>
void check_segments(const host_context& ctx, const char* algorithm, index_t count, StartsIt starts,
                    index_t num_segments) {
  detail::require_segments(algorithm, count, num_segments);
  detail::require_range(algorithm, "segment_starts", starts, num_segments);
  if (!ctx.checked()) return;
  if (index_t s = first_position_where(ctx, num_segments, bad_segment_start<StartsIt>{starts, count}); s >= 0)
    detail::throw_bad_start(algorithm, s, static_cast<long long>(starts[s]),
                            s > 0 ? static_cast<long long>(starts[s - 1]) : 0, count);
}

// Calls share_fn(c, share) for the c-th of the threads' shares of the path, in parallel; the
// shares take every start and every item once, whatever the starts hold.
template <class StartsIt, class ShareFn>
void for_each_load_balance_share(const host_context& ctx, StartsIt starts, index_t num_segments, index_t count,
                                 index_t chunks, ShareFn share_fn) {
  const index_t total = count + num_segments;
  const std::vector<index_t> split = chunk_splits(
      ctx, total, chunks, [&](index_t diag) { return load_balance_split(starts, num_segments, count, diag); });
  parallel_for(ctx, chunks, [&](index_t c) {
    const auto k = static_cast<std::size_t>(c);
    share_fn(c, load_balance_share_between(split[k], split[k + 1], chunk_diagonal(total, c, chunks),
                                           chunk_diagonal(total, c + 1, chunks)));
  });
}

template <class Func, class StartsIt>
void call_for_each_item(const host_context& ctx, Func& f, index_t count, StartsIt starts, index_t num_segments) {
  for_each_load_balance_share(
      ctx, starts, num_segments, count, chunk_count(ctx, count + num_segments),
      [&](index_t, const load_balance_share& share) {
        walk_load_balance_pieces(starts, share, [&](index_t piece_segment, index_t lo, index_t hi) {
          if (lo == hi) return;
          const index_t s = clamp_segment(piece_segment, num_segments);
          const auto segment_start = static_cast<index_t>(starts[s]);
          for (index_t i = lo; i < hi; ++i) f(i, s, rank_in_segment(i, segment_start));
        });
      });
}

// out[s] = init op value_at(first item of s) op ... for every segment. Each thread reduces its
// share: the segments that start and end inside it are folded from init in a tight loop each, as
// a sequential loop would; the partials of the two that cross its ends are joined with the
// neighbours' afterwards, in order, on one thread.
template <class ValueAt, class StartsIt, class OutIt, class T, class Op>
void reduce_segments(const host_context& ctx, ValueAt& value_at, index_t count, StartsIt starts, index_t num_segments,
                     OutIt out, const T& init, Op op) {
  struct share_result {
    load_balance_share share;
    bool head_closed;                // the segment open at the share's start ends inside it
    partial_reduction<T> head;       // that segment's items in this share, when it ends here
    partial_reduction<T> tail;       // the segment open at the share's end: its items here
  };
  auto fold = [&](T value, index_t lo, index_t hi) {
    for (index_t i = lo; i < hi; ++i) value = static_cast<T>(op(value, static_cast<T>(value_at(i))));
    return value;
  };
  auto partial_of = [&](index_t lo, index_t hi) {
    return lo == hi ? partial_reduction<T>{} : partial_reduction<T>{fold(static_cast<T>(value_at(lo)), lo + 1, hi), true};
  };
  const index_t chunks = chunk_count(ctx, count + num_segments);
  std::vector<share_result> results(static_cast<std::size_t>(chunks));
  for_each_load_balance_share(ctx, starts, num_segments, count, chunks, [&](index_t c, const load_balance_share& share) {
    share_result r{share, share.start_begin < share.start_end, {}, {}};
    // Each segment's end clamped into [lo, item_end]: malformed starts never leave the share.
    index_t lo = share.item_begin;
    auto end_of = [&](index_t s) {
      return detail::min_of(detail::max_of(static_cast<index_t>(starts[s]), lo), share.item_end);
    };
    if (r.head_closed) {
      index_t hi = end_of(share.start_begin);
      r.head = partial_of(lo, hi);
      for (index_t s = share.start_begin; s + 1 < share.start_end; ++s) {
        lo = hi;
        hi = end_of(s + 1);
        out[s] = fold(init, lo, hi);
      }
      lo = hi;
    }
    r.tail = partial_of(lo, share.item_end);
    results[static_cast<std::size_t>(c)] = r;
  });

  // The segments that cross shares, in order: carry holds the open one's partial so far.
  segment_partial<T> carry{-1, {}};
  const combine_segment_partials<T, Op> combine{op};
  for (const share_result& r : results) {
    const index_t head_segment = r.share.start_begin - 1;
    if (!r.head_closed) {
      carry = combine(carry, {head_segment, r.tail});
      continue;
    }
    if (head_segment >= 0)  // -1 only for items before a malformed first start: no segment
      out[head_segment] = combine(carry, {head_segment, r.head}).partial.finish(init, op);
    carry = {r.share.start_end - 1, r.tail};
  }
  if (carry.segment >= 0) out[carry.segment] = carry.partial.finish(init, op);
}

// The calls of load_balance.hpp on a host_context, arguments already checked (Policy: a GPU
// tuning, unused).
template <class Policy = default_tuning, class Func, class StartsIt>
void transform_lbs(host_context& ctx, Func f, index_t count, StartsIt starts, index_t num_segments) {
  call_for_each_item(ctx, f, count, starts, num_segments);
}

template <class StartsIt, class OutIt>
void load_balancing_search(host_context& ctx, index_t count, StartsIt starts, index_t num_segments, OutIt out) {
  using Out = typename std::iterator_traits<OutIt>::value_type;
  auto write = [out](index_t i, index_t segment, index_t) { out[i] = static_cast<Out>(segment); };
  call_for_each_item(ctx, write, count, starts, num_segments);
}

template <class ValuesIt, class StartsIt, class OutIt>
void interval_expand(host_context& ctx, ValuesIt values, index_t count, StartsIt starts, index_t num_segments,
                     OutIt out) {
  auto expand = [values, out](index_t i, index_t segment, index_t) { out[i] = values[segment]; };
  call_for_each_item(ctx, expand, count, starts, num_segments);
}

template <class Policy = default_tuning, class ValueAt, class StartsIt, class OutIt, class T, class Op>
void segmented_reduce(host_context& ctx, ValueAt value_at, index_t count, StartsIt starts, index_t num_segments,
                      OutIt out, T init, Op op) {
  reduce_segments(ctx, value_at, count, starts, num_segments, out, init, op);
}

}  // namespace host

namespace backend {
using host::check_segments;
using host::interval_expand;
using host::load_balancing_search;
using host::segmented_reduce;
using host::transform_lbs;
}  // namespace backend
}  // namespace mergepath
