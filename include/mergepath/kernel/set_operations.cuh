// The GPU set-operation kernels: a partition kernel (a set_path point per tile), and a one-pass
// tile kernel: keys in shared memory, a set_path point per thread, each thread's walk, the tile's
// output offset by decoupled look-back, and the compacted output.
#pragma once

#include <cstddef>
#include <climits>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>
#include <type_traits>

#include "../detail/config.hpp"
#include "../thread/set_operations.hpp"
#include "../tuning/set_operations.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

// The tiles' output offsets, found in the tile kernel's one pass by decoupled look-back (CUB's
// tile status and prefix callback, as its single-pass scans use them).
using set_tile_state = cub::ScanTileState<index_t>;

// splits[p] = the walk's point at p * tile_items steps, a split per tile; also readies the tiles'
// look-back status (one thread per tile, as the status expects).
template <class AIt, class BIt, class Comp>
__global__ void set_partition_kernel(AIt a, index_t a_count, BIt b, index_t b_count, index_t tile_items,
                                     index_t num_splits, set_split<index_t>* splits, set_tile_state tile_state,
                                     Comp comp) {
  const index_t p = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  tile_state.InitializeStatus(static_cast<int>(num_splits - 1));
  if (p < num_splits)
    splits[p] = set_path(a, a_count, b, b_count, detail::min_of(p * tile_items, a_count + b_count), comp);
}

// One tile per block, in one pass: the tile's keys in shared memory, a set_path point per thread,
// each thread's walk (remembering what each step keeps), a block scan of the threads' counts
// whose prefix comes from the tiles before (look-back), then the tile's output, compacted through
// shared memory (coalesced stores). The last tile writes the total. For any data nothing outside
// a, b, shared memory and out[0, capacity) is touched.
template <class Policy, set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads)
    set_operation_tile_kernel(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, const set_split<index_t>* splits,
                              index_t num_tiles, set_tile_state tile_state, index_t* total, index_t capacity,
                              OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int room = Policy::tuning.tile_items() + 1;  // a point may lie one step before its diagonal
  constexpr int steps = items + 1;                        // a thread's share, at most
  constexpr int nothing = INT_MIN;                        // a step that keeps no element
  using Key = value_of<AKeys>;
  using scan = cub::BlockScan<index_t, threads>;
  using tile_prefix = cub::TilePrefixCallbackOp<index_t, plus<>, set_tile_state>;
  __shared__ __align__(16) unsigned char key_bytes[sizeof(Key) * room];
  __shared__ int sources[room];  // output k of the tile: a's element s >= 0, or b's ~s
  __shared__ set_split<int> points[threads + 1];
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ typename tile_prefix::TempStorage prefix_storage;
  __shared__ index_t tile_out[2];  // the tile's output range

  const index_t tile = blockIdx.x;
  const set_split<index_t> s0 = splits[tile], s1 = splits[tile + 1];
  const int a_count = static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.a - s0.a, 0), room));
  const int b_count =
      static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.b - s0.b, 0), room - a_count));
  Key* keys = reinterpret_cast<Key*>(key_bytes);
  const auto a_tile = a_keys + s0.a;
  const auto b_tile = b_keys + s0.b;
  for (int k = threadIdx.x; k < a_count; k += threads) keys[k] = static_cast<Key>(a_tile[k]);
  for (int k = threadIdx.x; k < b_count; k += threads) keys[a_count + k] = static_cast<Key>(b_tile[k]);
  __syncthreads();

  const Key* a = keys;
  const Key* b = keys + a_count;
  points[threadIdx.x] =
      set_path(a, a_count, b, b_count, detail::min_of(static_cast<int>(threadIdx.x) * items, a_count + b_count), comp);
  if (threadIdx.x == 0) points[threads] = {a_count, b_count};
  __syncthreads();
  const set_split<int> p0 = points[threadIdx.x], p1 = points[threadIdx.x + 1];
  const int a_end = detail::max_of(p0.a, p1.a), b_end = detail::max_of(p0.b, p1.b);

  // The walk of serial_set_operation, a fixed number of steps (each consumes an element or a
  // pair), so that what each keeps stays in registers.
  int kept[steps];
  int count = 0;
  int i = p0.a, j = p0.b;
  MERGEPATH_UNROLL
  for (int step = 0; step < steps; ++step) {
    int keep = nothing;
    const bool has_a = i < a_end, has_b = j < b_end;
    if (has_a && (!has_b || comp(a[i], b[j]))) {
      if (detail::keeps_a_only(Op)) keep = i;
      ++i;
    } else if (has_b && (!has_a || comp(b[j], a[i]))) {
      if (detail::keeps_b_only(Op)) keep = ~j;
      ++j;
    } else if (has_a) {  // equivalent keys: a pair
      if (detail::keeps_pair(Op)) keep = i;
      ++i, ++j;
    }
    kept[step] = keep;
    count += keep != nothing;
  }

  index_t offset = 0;  // where this thread's first kept element goes in the whole output
  if (tile == 0) {
    index_t tile_count = 0;
    scan(scan_storage).ExclusiveSum(index_t{count}, offset, tile_count);
    if (threadIdx.x == 0 && num_tiles > 1) tile_state.SetInclusive(0, tile_count);
  } else {
    tile_prefix prefix(tile_state, prefix_storage, plus<>{}, static_cast<int>(tile));
    scan(scan_storage).ExclusiveSum(index_t{count}, offset, prefix);
  }
  if (threadIdx.x == 0) tile_out[0] = offset;
  if (threadIdx.x == threads - 1) {
    tile_out[1] = offset + count;
    if (tile == num_tiles - 1) *total = offset + count;
  }
  __syncthreads();
  const index_t out_begin = tile_out[0];
  // Longer only on unsorted input (overlapping walks).
  const int tile_count = static_cast<int>(detail::min_of<index_t>(tile_out[1] - out_begin, room));
  int at = static_cast<int>(offset - out_begin);
  MERGEPATH_UNROLL
  for (int step = 0; step < steps; ++step)
    if (kept[step] != nothing) {
      if (at < room) sources[at] = kept[step];
      ++at;
    }
  __syncthreads();
  for (int k = threadIdx.x; k < tile_count; k += threads) {
    const index_t out_at = out_begin + k;
    if (out_at >= capacity) break;
    const int source = sources[k];
    out_keys[out_at] = source >= 0 ? a[source] : b[~source];
    if constexpr (!std::is_same_v<OutVals, std::nullptr_t>)
      out_vals[out_at] = source >= 0 ? a_vals[s0.a + source] : b_vals[s0.b + ~source];
  }
}

}  // namespace kernel
}  // namespace mergepath
