// binary_search, eytzinger_layout, eytzinger_search and batch_search on a host_context: the
// needles split over the threads, one search each; the layout scattered in parallel.
#pragma once

#include <algorithm>
#include <iterator>
#include <numeric>
#include <type_traits>
#include <vector>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/binary_search.hpp"
#include "../tuning/binary_search.hpp"
#include "mergesort.hpp"
#include "parallel.hpp"
#include "sorted_search.hpp"

namespace mergepath {
namespace host {

// f(i) for every i in [0, count), in chunks over the threads.
template <class F>
void for_each_index(const host_context& ctx, index_t count, F f) {
  const index_t chunks = chunk_count(ctx, count);
  parallel_for(ctx, chunks, [&](index_t c) {
    for (index_t i = count * c / chunks, end = count * (c + 1) / chunks; i < end; ++i) f(i);
  });
}

// eytzinger_search_bound with a prefetch: a node's descendants four levels down are 16
// consecutive keys, one 64-byte cache line for 4-byte keys, fetched while the next four levels
// are compared (the Eytzinger layout's advantage on a CPU, which a sorted array cannot offer).
template <bounds Bounds, class Key, class T, class Comp>
index_t eytzinger_search_prefetched(const Key* tree, index_t count, const T& x, Comp comp) {
  index_t k = 1;
  while (k <= count) {
#if defined(__GNUC__)
    __builtin_prefetch(tree + detail::min_of<index_t>(16 * k - 1, count - 1));
#endif
    k = 2 * k + (detail::goes_past<Bounds>(tree[k - 1], x, comp) ? 1 : 0);
  }
  k >>= detail::trailing_zeros(static_cast<std::uint64_t>(~k)) + 1;
  return k == 0 ? count : eytzinger_shape(count).sorted_index(k);
}

// The calls of binary_search.hpp on a host_context, arguments already checked.
template <bounds Bounds, class NeedleIt, class HayIt, class OutIt, class Comp>
void binary_search(host_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                   OutIt out, Comp comp) {
  for_each_index(ctx, needle_count, [&](index_t i) {
    out[i] = static_cast<typename std::iterator_traits<OutIt>::value_type>(
        binary_search_bound<Bounds>(haystack, haystack_count, needles[i], comp));
  });
}

template <class InIt, class OutIt>
void eytzinger_layout(host_context& ctx, InIt sorted, index_t count, OutIt tree) {
  const eytzinger_shape shape(count);
  // Scattered from the sorted order: reads stream, and each level's writes are contiguous.
  for_each_index(ctx, count, [&](index_t i) { tree[shape.node_of(i) - 1] = sorted[i]; });
}

template <bounds Bounds, class NeedleIt, class TreeIt, class OutIt, class Comp>
void eytzinger_search(host_context& ctx, NeedleIt needles, index_t needle_count, TreeIt tree, index_t count, OutIt out,
                      Comp comp) {
  for_each_index(ctx, needle_count, [&](index_t i) {
    index_t bound;
    if constexpr (std::is_pointer_v<TreeIt>)
      bound = eytzinger_search_prefetched<Bounds>(tree, count, needles[i], comp);
    else
      bound = eytzinger_search_bound<Bounds>(tree, count, needles[i], comp);
    out[i] = static_cast<typename std::iterator_traits<OutIt>::value_type>(bound);
  });
}

// Needles one by one, or sorted copies of them with their positions walked against the haystack
// and the bounds scattered back.
template <bounds Bounds, class NeedleIt, class HayIt, class OutIt, class Comp>
void batch_search(host_context& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count,
                  OutIt out, Comp comp, search_strategy strategy) {
  if (strategy == search_strategy::automatic) strategy = search_strategy_for(false, needle_count, haystack_count);
  if (strategy == search_strategy::per_needle) {
    host::binary_search<Bounds>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
    return;
  }
  using Needle = typename std::iterator_traits<NeedleIt>::value_type;
  std::vector<Needle> sorted(needles, needles + needle_count);
  std::vector<index_t> position(static_cast<std::size_t>(needle_count));
  std::iota(position.begin(), position.end(), index_t{0});
  sort_keys_and_values(ctx, sorted.data(), position.data(), needle_count, comp);
  std::vector<index_t> bound(static_cast<std::size_t>(needle_count));
  host::sorted_search<Bounds, search::index, search::none>(ctx, sorted.data(), needle_count, haystack, haystack_count,
                                                           bound.data(), nullptr, comp);
  for_each_index(ctx, needle_count, [&](index_t i) {
    // Clamped: an unsorted haystack gives unspecified bounds, but never ones outside it.
    out[position[static_cast<std::size_t>(i)]] = static_cast<typename std::iterator_traits<OutIt>::value_type>(
        std::min(std::max(bound[static_cast<std::size_t>(i)], index_t{0}), haystack_count));
  });
}

}  // namespace host

namespace backend {
using host::batch_search;
using host::binary_search;
using host::eytzinger_layout;
using host::eytzinger_search;
}  // namespace backend
}  // namespace mergepath
