// Merge of one tile held in shared memory: every thread produces ItemsPerThread outputs.
#pragma once

#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/segmented_merge.hpp"
#include "../thread/serial_merge.hpp"
#include "slice_check.cuh"
#include "tile_io.cuh"

namespace mergepath {
namespace block {

// The tile's two sorted runs sit in `keys` as `runs` says (with tile_padding slots after them).
// Thread t finds where its outputs [ItemsPerThread * t, ...) start with merge_path, then merges
// them into registers: out[i] is output ItemsPerThread * t + i and source[i] its position in
// `keys`. Outputs past runs.count() are unspecified. Every thread calls it (an order that is not
// trusted is checked: slice_check.cuh); the tile is untouched.
template <int BlockThreads, int ItemsPerThread, bounds Bounds = bounds::lower, class T, class Comp>
__device__ void merge_tile_in_shared(const T* keys, const tile_layout& runs, T (&out)[ItemsPerThread],
                                     int (&source)[ItemsPerThread], Comp comp) {
  int diag = detail::min_of(ItemsPerThread * static_cast<int>(threadIdx.x), runs.count());
  int a_split = merge_path<Bounds>(keys + runs.a_pos, runs.a_count, keys + runs.b_pos, runs.b_count, diag, comp);
  const int a_end = runs.a_pos + runs.a_count, b_end = runs.b_pos + runs.b_count;
  const int walked_to = serial_merge_n<ItemsPerThread, Bounds>(keys, runs.a_pos + a_split, a_end,
                                                               runs.b_pos + diag - a_split, b_end, out, source, comp);
  if constexpr (!order_is_trusted<T, Comp>) {
    if (slices_disagree<BlockThreads>(runs.a_pos + a_split, walked_to, diag + ItemsPerThread < runs.count())) {
      int a = runs.a_pos, b = runs.b_pos;
      serial_merge_advance<Bounds>(keys, a, a_end, b, b_end, diag, comp);
      serial_merge_n<ItemsPerThread, Bounds>(keys, a, a_end, b, b_end, out, source, comp);
    }
  }
}

// The segmented merge of a tile (thread/segmented_merge.hpp): of the a run, the first
// a_active_begin keys precede everything; of the b run, the keys from b_active_end on follow
// everything; only the rest interleave.
struct tile_segment {
  int a_active_begin, b_active_end;
};

template <int BlockThreads, int ItemsPerThread, class T, class Comp>
__device__ void merge_tile_in_shared(const T* keys, const tile_layout& runs, tile_segment segment,
                                     T (&out)[ItemsPerThread], int (&source)[ItemsPerThread], Comp comp) {
  int diag = detail::min_of(ItemsPerThread * static_cast<int>(threadIdx.x), runs.count());
  int a_split = segmented_merge_path(keys + runs.a_pos, runs.a_count, keys + runs.b_pos, runs.b_count,
                                     segment.a_active_begin, segment.b_active_end, diag, comp);
  const int a_end = runs.a_pos + runs.a_count, b_end = runs.b_pos + runs.b_count;
  const int a_active_begin = runs.a_pos + segment.a_active_begin, b_active_end = runs.b_pos + segment.b_active_end;
  const int walked_to = serial_segmented_merge_n<ItemsPerThread>(keys, runs.a_pos + a_split, a_end,
                                                                 runs.b_pos + diag - a_split, b_end, a_active_begin,
                                                                 b_active_end, out, source, comp);
  if constexpr (!order_is_trusted<T, Comp>) {
    if (slices_disagree<BlockThreads>(runs.a_pos + a_split, walked_to, diag + ItemsPerThread < runs.count())) {
      int a = runs.a_pos, b = runs.b_pos;
      serial_segmented_merge_advance(keys, a, a_end, b, a_active_begin, b_active_end, diag, comp);
      serial_segmented_merge_n<ItemsPerThread>(keys, a, a_end, b, b_end, a_active_begin, b_active_end, out, source,
                                               comp);
    }
  }
}

}  // namespace block
}  // namespace mergepath
