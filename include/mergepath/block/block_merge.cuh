// Merge of one tile held in shared memory: every thread produces ItemsPerThread outputs.
#pragma once

#include "../functional.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"

namespace mergepath {
namespace block {

// keys[0, a_count) and keys[a_count, a_count + b_count) are the tile's two sorted runs. Thread t
// finds where its outputs [ItemsPerThread * t, ...) start with merge_path, then merges them into
// registers: out[i] is output ItemsPerThread * t + i and source[i] its position in `keys`.
// Outputs past a_count + b_count are unspecified.
template <int BlockThreads, int ItemsPerThread, bounds Bounds = bounds::lower, class T, class Comp>
__device__ void merge_tile_in_shared(const T* keys, int a_count, int b_count, T (&out)[ItemsPerThread],
                                     int (&source)[ItemsPerThread], Comp comp) {
  int count = a_count + b_count;
  int diag = detail::min_of(ItemsPerThread * static_cast<int>(threadIdx.x), count);
  int a_begin = merge_path<Bounds>(keys, a_count, keys + a_count, b_count, diag, comp);
  serial_merge_n<ItemsPerThread, Bounds>(keys, a_begin, a_count, a_count + diag - a_begin, count, out, source,
                                         comp);
}

}  // namespace block
}  // namespace mergepath
