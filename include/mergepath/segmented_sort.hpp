// Segmented sort and locality sort (moderngpu's Segmented Sort and Locality Sort): mergesorts that
// keep keys inside their segments, and that skip the merging of data already in place.
//
//   // Heads as indices: sorted, strictly increasing, each in [0, count); a head at 0 may be omitted.
//   template <class Ctx, class KeysIt, class HeadsIt, class Comp = less<>>
//   void segmented_sort(Ctx& ctx, KeysIt keys, index_t count, HeadsIt heads, index_t num_heads,
//                       Comp comp = {}, segsort_stats* stats = nullptr);
//   template <class Ctx, class KeysIt, class ValsIt, class HeadsIt, class Comp = less<>>
//   void segmented_sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, HeadsIt heads,
//                             index_t num_heads, Comp comp = {}, segsort_stats* stats = nullptr);
//
//   // Heads as a bitfield: bit i % 32 of head_flags[i / 32] marks element i as a segment head
//   // (head_flag_words(count) words); element 0 always starts a segment.
//   template <class Ctx, class KeysIt, class Comp = less<>>
//   void segmented_sort_flags(Ctx& ctx, KeysIt keys, index_t count, const std::uint32_t* head_flags,
//                             Comp comp = {}, segsort_stats* stats = nullptr);
//   template <class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
//   void segmented_sort_pairs_flags(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count,
//                                   const std::uint32_t* head_flags, Comp comp = {},
//                                   segsort_stats* stats = nullptr);
//
//   // A mergesort for inputs that start near their sorted places: the merge passes skip tiles
//   // whose data is already in order.
//   template <class Ctx, class KeysIt, class Comp = less<>>
//   void locality_sort(Ctx& ctx, KeysIt keys, index_t count, Comp comp = {}, segsort_stats* stats = nullptr);
//   template <class Ctx, class KeysIt, class ValsIt, class Comp = less<>>
//   void locality_sort_pairs(Ctx& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp = {},
//                            segsort_stats* stats = nullptr);
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
// On a GPU the sort follows the seed: a segmented blocksort (sort_network_segmented per thread,
// then merges in shared memory confined to the segment across each interface), then global merge
// passes in which only the tiles over a segment that spans two runs merge; the others copy their
// data to the other buffer once and do nothing after. A fixed grid of blocks serves each pass
// from merge and copy work queues, so the sort runs asynchronously on ctx.stream() with no host
// round trip (capturable in a CUDA graph), unless checked mode or stats ask for one. With stats,
// it waits at the end and fills them: tiles per pass, and how many merged or copied (print them
// with operator<<). The CPU sorts segment by segment and leaves stats empty.
#pragma once

#include "segsort_stats.hpp"
#include "host/segmented_sort.hpp"
#if MERGEPATH_HAS_CUDA
#include "device/segmented_sort.cuh"
#endif
