// Segmented sort and locality sort (moderngpu's Segmented Sort and Locality Sort): mergesorts that
// keep keys inside their segments, and that skip the merging of data already in place.
//
// segmented_sort and segmented_sort_pairs take heads as indices: sorted, strictly increasing, each
// in [0, count) (a head at 0 may be omitted). The _flags forms take them as a bitfield: bit i % 32
// of head_flags[i / 32] marks element i as a segment head (head_flag_words(count) words); element
// 0 always starts a segment. locality_sort is a mergesort for inputs that start near their sorted
// places: the merge passes skip tiles whose data is already in order.
//
// Every segment (the keys from one head up to the next) ends sorted by comp, in place; no key
// leaves its segment. Stable: of equal keys in a segment, the one that came first stays first;
// the _pairs forms move vals[i] with keys[i]. Any strict weak order, any trivially copyable key
// and value type, 64-bit counts. Ctx is host_context (host iterators and pointers) or
// cuda_context (device pointers or iterators; heads and head_flags in device memory).
//
// Malformed head indices (out of range, unordered, repeated) never cause an out-of-bounds access:
// the segments are those of the set of in-range indices given, so the output is still a
// permutation of the input. In checked mode (ctx.set_checked(true)) they throw
// std::invalid_argument naming the first bad index, before any key moves.
//
// Throws std::invalid_argument for a negative count or a null pointer with a non-zero count;
// cuda_error when a CUDA call fails. Scratch memory as large as the input (plus a bit per key for
// the heads, and a few bytes per tile) comes from the context.
//
// On a GPU the sort follows moderngpu's Segmented Sort page: a segmented blocksort (sort_network_segmented per thread,
// then merges in shared memory confined to the segment across each interface), then global merge
// passes in which only the tiles over a segment that spans two runs merge; the others copy their
// data to the other buffer once and do nothing after. A fixed grid of blocks serves each pass
// from merge and copy work queues, so the sort runs asynchronously on ctx.stream() with no host
// round trip (capturable in a CUDA graph), unless checked mode or stats ask for one. With stats,
// it waits at the end and fills them: tiles per pass, and how many merged or copied (print them
// with operator<<). The CPU sorts segment by segment and leaves stats empty. Each call takes a
// tuning policy as its first template argument (tuning/segmented_sort.hpp).
#pragma once

#include "detail/backend.hpp"
#include "host/segmented_sort.hpp"
#include "segsort_stats.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/segmented_sort.cuh"
#endif

namespace mergepath {
namespace detail {

template <class Ctx, class HeadsIt>
void check_segment_heads(Ctx& ctx, const char* algorithm, HeadsIt heads, index_t num_heads, index_t count) {
  require_range(algorithm, "heads", heads, num_heads);
  backend::check_heads(ctx, algorithm, heads, num_heads, count);
}

}  // namespace detail

template <class Policy = default_tuning, class Ctx, class KeysIt, class HeadsIt, class Comp = less<>>
void segmented_sort(Ctx& ctx, KeysIt keys, index_t count, HeadsIt heads, index_t num_heads, Comp comp = {},
                    segsort_stats* stats = nullptr) {
  detail::require_range("segmented_sort", "keys", keys, count);
  detail::check_segment_heads(ctx, "segmented_sort", heads, num_heads, count);
  backend::segmented_sort<Policy>(ctx, keys, count, heads, num_heads, comp, stats);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class ValsIt, class HeadsIt, class Comp = less<>>
void segmented_sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, HeadsIt heads, index_t num_heads,
                          Comp comp = {}, segsort_stats* stats = nullptr) {
  detail::require_range("segmented_sort_pairs", "keys", keys, count);
  detail::require_range("segmented_sort_pairs", "vals", vals, count);
  detail::check_segment_heads(ctx, "segmented_sort_pairs", heads, num_heads, count);
  backend::segmented_sort_pairs<Policy>(ctx, keys, vals, count, heads, num_heads, comp, stats);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class Comp = less<>>
void segmented_sort_flags(Ctx& ctx, KeysIt keys, index_t count, const std::uint32_t* head_flags, Comp comp = {},
                          segsort_stats* stats = nullptr) {
  detail::require_range("segmented_sort_flags", "keys", keys, count);
  detail::require_range("segmented_sort_flags", "head_flags", head_flags, head_flag_words(count));
  backend::segmented_sort_flags<Policy>(ctx, keys, count, head_flags, comp, stats);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
void segmented_sort_pairs_flags(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, const std::uint32_t* head_flags,
                                Comp comp = {}, segsort_stats* stats = nullptr) {
  detail::require_range("segmented_sort_pairs_flags", "keys", keys, count);
  detail::require_range("segmented_sort_pairs_flags", "vals", vals, count);
  detail::require_range("segmented_sort_pairs_flags", "head_flags", head_flags, head_flag_words(count));
  backend::segmented_sort_pairs_flags<Policy>(ctx, keys, vals, count, head_flags, comp, stats);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class Comp = less<>>
void locality_sort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {}, segsort_stats* stats = nullptr) {
  detail::require_range("locality_sort", "keys", keys, count);
  backend::locality_sort<Policy>(ctx, keys, count, comp, stats);
}

template <class Policy = default_tuning, class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
void locality_sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {},
                         segsort_stats* stats = nullptr) {
  detail::require_range("locality_sort_pairs", "keys", keys, count);
  detail::require_range("locality_sort_pairs", "vals", vals, count);
  backend::locality_sort_pairs<Policy>(ctx, keys, vals, count, comp, stats);
}

}  // namespace mergepath
