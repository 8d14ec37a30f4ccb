// Binary search and the Eytzinger layout (the Futhark "Binary search" example; Khuong and Morin's
// "Array layouts for comparison-based searching"), and searching a batch of unsorted needles.
//
//   // out[i] = the lower (or upper) bound of needles[i] in haystack[0, haystack_count), as
//   // std::lower_bound / std::upper_bound would return it (an index). One search per needle.
//   template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class HayIt, class OutIt,
//             class Comp = less<>>
//   void binary_search(Ctx& ctx, NeedleIt needles, index_t needle_count, HayIt haystack,
//                      index_t haystack_count, OutIt out, Comp comp = {});
//
//   // tree[0, count) = sorted[0, count) in BFS (Eytzinger) order: tree[0] is the root, and the
//   // children of tree[k - 1] are tree[2k - 1] and tree[2k] (k from 1). Any count.
//   template <class Ctx, class InIt, class OutIt, class Comp = less<>>
//   void eytzinger_layout(Ctx& ctx, InIt sorted, index_t count, OutIt tree, Comp comp = {});
//   // (comp: the order sorted is in, which checked mode verifies)
//
//   // The same results as binary_search on the sorted array the tree was built from: indices
//   // into the sorted order.
//   template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class TreeIt, class OutIt,
//             class Comp = less<>>
//   void eytzinger_search(Ctx& ctx, NeedleIt needles, index_t needle_count, TreeIt tree,
//                         index_t count, OutIt out, Comp comp = {});
//
//   // A batch of needles in any order: search one by one (binary_search), or sort the needles
//   // with their positions, run sorted_search (one merge-like walk of both inputs), and scatter
//   // the bounds back; automatic picks by sizes (search_strategy_for, measured crossover).
//   template <bounds Bounds = bounds::lower, class Ctx, class NeedleIt, class HayIt, class OutIt,
//             class Comp = less<>>
//   void batch_search(Ctx& ctx, NeedleIt needles, index_t needle_count, HayIt haystack,
//                     index_t haystack_count, OutIt out, Comp comp = {},
//                     search_strategy strategy = search_strategy::automatic);
//
//   // Built once from sorted keys, searched many times; view() is trivially copyable and its
//   // lower_bound / upper_bound run on the host or inside your own kernels.
//   template <class Key, class Comp = less<>> class eytzinger_index;
//
// The haystack must be sorted by comp (unsorted: unspecified results, never an out-of-bounds
// access). Any strict weak order; 64-bit counts; out may be any integer type wide enough for
// haystack_count. Throws std::invalid_argument for a negative count or a null pointer with a
// non-zero count, and in checked mode (ctx.set_checked(true)) for a haystack (eytzinger_layout:
// sorted input) out of order, naming the first position out of order, before anything is written
// (on a GPU that costs a pass and a synchronization); cuda_error when a CUDA call fails. On a GPU every call is asynchronous on
// ctx.stream() (capturable in a CUDA graph); batch_search's sorting path takes scratch memory of
// about three times the needles from the context.
#pragma once

#include "eytzinger_index.hpp"
#include "host/binary_search.hpp"
#include "tuning/binary_search.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/binary_search.cuh"
#endif
