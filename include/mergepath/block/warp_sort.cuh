// warp_bitonic_sort: a warp sorts 32 x Items keys held in registers (blocked: lane l holds the
// keys [l * Items, (l + 1) * Items) of the warp's run) by bitonic merges, across lanes through
// shuffles and within a lane in registers. No shared memory, no barrier and no data-dependent
// address, so the first five doublings of a blocksort cost a few hundred instructions a thread
// instead of five merge rounds through shared memory. Not stable: for keys whose equal copies are
// identical (equal_keys_are_identical).
#pragma once

#include <type_traits>

#include "../detail/config.hpp"
#include "../thread/sorting_network.hpp"
#include "warp_merge_path.cuh"

namespace mergepath {
namespace detail {

// Keeps the smaller of mine and other (keep_low) or the larger.
template <class Key, class Comp>
__device__ Key keep_low_or_high(const Key& mine, const Key& other, bool keep_low, Comp comp) {
  const bool other_first = comp(other, mine);
  return other_first == keep_low ? other : mine;
}

// The bitonic half-cleaners inside a lane: slots `stride` apart, the lower slot keeping the
// smaller key, for stride = Items / 2 .. 1.
template <int Items, class Key, class Comp>
__device__ void clean_lane_keys(Key (&keys)[Items], Comp comp) {
  MERGEPATH_UNROLL
  for (int stride = Items / 2; stride > 0; stride /= 2) {
    MERGEPATH_UNROLL
    for (int k = 0; k < Items; ++k)
      if ((k & stride) == 0) {
        const bool swap = comp(keys[k + stride], keys[k]);
        const Key low = swap ? keys[k + stride] : keys[k];
        keys[k + stride] = swap ? keys[k] : keys[k + stride];
        keys[k] = low;
      }
  }
}

}  // namespace detail

namespace block {

// Sorts the warp's 32 x Items keys into one run, blocked across the lanes. Every lane of the
// warp must call it. Each lane sorts its keys (sort_network_unstable: slots from `valid` on take
// a key that sorts last), then stages double the runs: lanes in groups of 2, 4, .., 32 merge two
// sorted halves, first each key against its mirror image in the other half (lane l ^ (group - 1),
// slot Items - 1 - k: the second half read backwards makes the pair bitonic), then half-cleaners
// across lanes and within each lane.
template <int Items, class Key, class Comp>
__device__ void warp_bitonic_sort(Key (&keys)[Items], int valid, Comp comp) {
  static_assert(Items > 0 && (Items & (Items - 1)) == 0, "a bitonic merge of blocked runs needs a power of two a lane");
  static_assert(equal_keys_are_identical<Key, Comp>::value, "a bitonic sort would reorder equal keys");
  const int lane = static_cast<int>(threadIdx.x % warp_lanes);
  sort_network_unstable(keys, valid, comp);
  MERGEPATH_UNROLL
  for (int group = 2; group <= warp_lanes; group *= 2) {
    const bool low_half = (lane & (group / 2)) == 0;
    Key mirrored[Items];
    MERGEPATH_UNROLL
    for (int k = 0; k < Items; ++k)
      mirrored[k] = static_cast<Key>(__shfl_xor_sync(~0u, keys[Items - 1 - k], group - 1));
    MERGEPATH_UNROLL
    for (int k = 0; k < Items; ++k) keys[k] = detail::keep_low_or_high(keys[k], mirrored[k], low_half, comp);
    MERGEPATH_UNROLL
    for (int distance = group / 4; distance > 0; distance /= 2) {
      const bool low_lane = (lane & distance) == 0;
      MERGEPATH_UNROLL
      for (int k = 0; k < Items; ++k) {
        const Key other = static_cast<Key>(__shfl_xor_sync(~0u, keys[k], distance));  // narrow keys come back as int
        keys[k] = detail::keep_low_or_high(keys[k], other, low_lane, comp);
      }
    }
    detail::clean_lane_keys(keys, comp);
  }
}

}  // namespace block
}  // namespace mergepath
