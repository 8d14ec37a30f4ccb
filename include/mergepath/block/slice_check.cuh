// Whether the threads' slices of a tile merge tile their runs, and the way back when they do not.
// Each thread searches its own Merge Path split and then walks its outputs; under a strict weak
// order a thread's walk ends where the next thread's search starts it. Under a comparator that
// is not one (<=, !=, less<> over NaNs) the searches may disagree with the walks: slices then
// overlap and leave gaps, and a sort or merge loses keys. A tile checks once a merge round and,
// if a slice disagrees, every thread walks to its start from the merge's start instead: slower,
// but every thread then walks the same path, so the slices tile the runs whatever the order.
#pragma once

#include "../detail/config.hpp"
#include "../thread/sorting_network.hpp"
#include "warp_merge_path.cuh"  // warp_lanes

namespace mergepath {
namespace block {

// Whether searches under Comp always agree with walks: integers under less or greater. Every
// other order (floating point keys, which may hold NaNs, and every user comparator) is checked.
template <class Key, class Comp>
constexpr bool order_is_trusted = equal_keys_are_identical<Key, Comp>::value;

// Called by every thread of the block. `start` is where this thread's slice began (an a
// position), `end` where its walk stopped, and next_continues whether thread + 1 walks on in the
// same merge. Returns, to every thread, whether some thread's end is not the next one's start.
// Two barriers; the tile in shared memory is untouched.
template <int BlockThreads>
__device__ bool slices_disagree(int start, int end, bool next_continues) {
  static_assert(BlockThreads % warp_lanes == 0, "whole warps");
  constexpr int warps = BlockThreads / warp_lanes;
  __shared__ int warp_first_start[warps];
  const int lane = static_cast<int>(threadIdx.x) % warp_lanes;
  const int warp = static_cast<int>(threadIdx.x) / warp_lanes;
  int next_start = __shfl_down_sync(~0u, start, 1);
  if (lane == 0) warp_first_start[warp] = start;
  __syncthreads();
  if (lane == warp_lanes - 1 && warp + 1 < warps) next_start = warp_first_start[warp + 1];
  return __syncthreads_or(next_continues && end != next_start) != 0;
}

}  // namespace block
}  // namespace mergepath
