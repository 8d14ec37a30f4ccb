// Binary search and the Eytzinger layout (the Futhark "Binary search" example; Khuong and Morin's
// "Array layouts for comparison-based searching"), and searching a batch of unsorted needles.
//
// binary_search: out[i] = the lower (or upper) bound of needles[i] in haystack[0, haystack_count),
// as std::lower_bound / std::upper_bound would return it (an index); one search per needle.
// eytzinger_layout: tree[0, count) = sorted[0, count) in BFS (Eytzinger) order: tree[0] is the
// root, and the children of tree[k - 1] are tree[2k - 1] and tree[2k] (k from 1); any count; comp
// is the order sorted is in, which checked mode verifies. eytzinger_search: the same results as
// binary_search on the sorted array the tree was built from (indices into the sorted order).
// batch_search: a batch of needles in any order, searched one by one (binary_search), or sorted
// with their positions, walked against the haystack by sorted_search and the bounds scattered
// back; automatic picks by sizes (search_strategy_for, measured crossover). eytzinger_index
// (eytzinger_index.hpp) is built once from sorted keys and searched many times: its view() is
// trivially copyable, and its lower_bound / upper_bound run on the host or inside your kernels.
//
// The haystack must be sorted by comp (unsorted: unspecified results, never an out-of-bounds
// access). Any strict weak order; 64-bit counts; out may be any integer type wide enough for
// haystack_count. Throws std::invalid_argument for a negative count or a null pointer with a
// non-zero count, and in checked mode (ctx.set_checked(true)) for a haystack (eytzinger_layout:
// sorted input) out of order, naming the first position out of order, before anything is written
// (on a GPU that costs a pass and a synchronization); cuda_error when a CUDA call fails. On a GPU every call is
// asynchronous on ctx.stream() (capturable in a CUDA graph); batch_search's sorting path takes scratch memory of about
// three times the needles from the context.
#pragma once

#include "detail/backend.hpp"
#include "host/binary_search.hpp"
#include "tuning/binary_search.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/binary_search.cuh"
#endif

namespace mergepath {
namespace detail {

template <class Ctx, class NeedleIt, class HayIt, class OutIt, class Comp>
void check_search_call(Ctx& ctx, const char* algorithm, NeedleIt needles, index_t needle_count, HayIt haystack,
                       index_t haystack_count, OutIt out, Comp comp) {
  require_range(algorithm, "needles", needles, needle_count);
  require_range(algorithm, "haystack", haystack, haystack_count);
  require_range(algorithm, "out", out, needle_count);
  backend::check_sorted(ctx, algorithm, "haystack", haystack, haystack_count, comp);
}

}  // namespace detail

template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class HayIt, class OutIt, class Comp = less<>>
void binary_search(Ctx& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count, OutIt out,
                   Comp comp = {}) {
  detail::check_search_call(ctx, "binary_search", needles, needle_count, haystack, haystack_count, out, comp);
  backend::binary_search<Bounds>(ctx, needles, needle_count, haystack, haystack_count, out, comp);
}

template <class Ctx, class InIt, class OutIt, class Comp = less<>>
void eytzinger_layout(Ctx& ctx, InIt sorted, index_t count, OutIt tree, Comp comp = {}) {
  detail::require_range("eytzinger_layout", "sorted", sorted, count);
  detail::require_range("eytzinger_layout", "tree", tree, count);
  if constexpr (detail::orders_keys<Comp, typename std::iterator_traits<InIt>::value_type>::value)
    backend::check_sorted(ctx, "eytzinger_layout", "sorted", sorted, count, comp);
  backend::eytzinger_layout(ctx, sorted, count, tree);
}

template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class TreeIt, class OutIt, class Comp = less<>>
void eytzinger_search(Ctx& ctx, NeedleIt needles, index_t needle_count, TreeIt tree, index_t count, OutIt out,
                      Comp comp = {}) {
  detail::require_range("eytzinger_search", "needles", needles, needle_count);
  detail::require_range("eytzinger_search", "tree", tree, count);
  detail::require_range("eytzinger_search", "out", out, needle_count);
  backend::eytzinger_search<Bounds>(ctx, needles, needle_count, tree, count, out, comp);
}

template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class HayIt, class OutIt, class Comp = less<>>
void batch_search(Ctx& ctx, NeedleIt needles, index_t needle_count, HayIt haystack, index_t haystack_count, OutIt out,
                  Comp comp = {}, search_strategy strategy = search_strategy::automatic) {
  detail::check_search_call(ctx, "batch_search", needles, needle_count, haystack, haystack_count, out, comp);
  backend::batch_search<Bounds>(ctx, needles, needle_count, haystack, haystack_count, out, comp, strategy);
}

}  // namespace mergepath

// The index built once and searched many times stands on the calls above.
#include "eytzinger_index.hpp"
