// The GPU set-operation kernels: a partition kernel (a set_path point per tile), and a one-pass
// tile kernel: keys in shared memory, a set_path point per thread, each thread's walk, the tile's
// output offset by decoupled look-back, and the compacted output.
#pragma once

#include <cstddef>
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

// splits[p] = the walk's point at p * tile_items steps, a split per tile, from the merge's
// partition pass (merge_splits[p]: merge_path's split there, found through its samples): only
// the run the merge split may cut is read (set_path_from_merge_path). Also readies the tiles'
// look-back status (one thread per tile, as the status expects).
template <class AIt, class BIt, class Comp>
__global__ void set_partition_kernel(AIt a, index_t a_count, BIt b, index_t b_count, index_t tile_items,
                                     index_t num_splits, const index_t* merge_splits, set_split<index_t>* splits,
                                     set_tile_state tile_state, Comp comp) {
  detail::allow_dependent_launch();
  const index_t p = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  detail::wait_for_prior_grid();  // the merge splits
  tile_state.InitializeStatus(static_cast<int>(num_splits - 1));
  if (p >= num_splits) return;
  const index_t diag = detail::min_of(p * tile_items, a_count + b_count);
  // Clamped into merge_path's range, so that any value of the split still reads inside a and b.
  const index_t i = detail::min_of(detail::max_of(merge_splits[p], detail::max_of<index_t>(0, diag - b_count)),
                                   detail::min_of(diag, a_count));
  splits[p] = set_path_from_merge_path(a, a_count, b, b_count, diag, i, comp);
}

// One tile per block, in one pass: the tile's keys in shared memory (16-byte copies where the
// runs allow), a set_path point per thread, each thread's walk (what each step keeps in
// registers, and a bit of whether it keeps it), a block scan of the threads' counts whose prefix
// comes from the tiles before (look-back), then the tile's output compacted in shared memory and
// stored coalesced: keys-only, the kept keys themselves, placed so that they leave in 16-byte
// pieces; by key, where each came from, for its value. The last tile writes the total. For any
// data nothing outside a, b, shared memory and out[0, capacity) is touched.
template <class Policy, set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads, Policy::tuning.min_blocks)
    set_operation_tile_kernel(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, const set_split<index_t>* splits,
                              index_t num_tiles, set_tile_state tile_state, index_t* total, index_t capacity,
                              OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int room = Policy::tuning.tile_items() + 1;  // a point may lie one step before its diagonal
  constexpr int steps = items + 1;                        // a thread's share, at most
  static_assert(steps <= 32, "set_operation_tile_kernel: a thread's steps fit a 32-bit mask");
  using Key = value_of<AKeys>;
  constexpr bool keys_only = std::is_same_v<OutVals, std::nullptr_t>;
  // What a kept step leaves: its key (keys-only), or where it came from (a's s >= 0, b's ~s).
  using kept_t = std::conditional_t<keys_only, Key, int>;
  using scan = cub::BlockScan<index_t, threads>;
  using tile_prefix = cub::TilePrefixCallbackOp<index_t, plus<>, set_tile_state>;
  // Room for the runs' shifts that let them arrive in 16-byte pieces, and the walk's reads of a spent b.
  __shared__ __align__(16) unsigned char key_bytes[sizeof(Key) * (room + 16)];
  __shared__ __align__(16) unsigned char kept_bytes[sizeof(kept_t) * (room + 16)];  // the tile's output
  __shared__ set_split<int> points[threads + 1];
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ typename tile_prefix::TempStorage prefix_storage;
  __shared__ index_t tile_out[2];  // the tile's output range

  detail::wait_for_prior_grid();  // the splits and the look-back status
  const index_t tile = blockIdx.x;
  const set_split<index_t> s0 = splits[tile], s1 = splits[tile + 1];
  const int a_count = static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.a - s0.a, 0), room));
  const int b_count =
      static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(s1.b - s0.b, 0), room - a_count));
  Key* keys = reinterpret_cast<Key*>(key_bytes);
  const auto a_tile = a_keys + s0.a;
  const auto b_tile = b_keys + s0.b;
  const block::tile_layout runs = block::tile_layout_for<Key>(a_tile, a_count, b_tile, b_count);
  block::copy_run_to_shared<threads, room>(a_tile, a_count, keys, runs.a_pos);
  block::copy_run_to_shared<threads, room>(b_tile, b_count, keys, runs.b_pos);
  block::commit_copies();
  block::wait_for_copies<0>();
  __syncthreads();

  const Key* a = keys + runs.a_pos;
  const Key* b = keys + runs.b_pos;
  points[threadIdx.x] =
      set_path(a, a_count, b, b_count, detail::min_of(static_cast<int>(threadIdx.x) * items, a_count + b_count), comp);
  if (threadIdx.x == 0) points[threads] = {a_count, b_count};
  __syncthreads();
  const set_split<int> p0 = points[threadIdx.x], p1 = points[threadIdx.x + 1];
  const int a_end = detail::max_of(p0.a, p1.a), b_end = detail::max_of(p0.b, p1.b);

  // The walk of serial_set_operation, a fixed number of steps (each consumes an element or a
  // pair), so that what each keeps stays in registers. Branch-free: the threads of a warp take
  // different cases at every step, and branches would run each case one after the other.
  kept_t kept[steps];
  unsigned kept_steps = 0;  // bit s: step s keeps kept[s]
  int i = p0.a, j = p0.b;
  const int a_last = detail::max_of(a_count - 1, 0), b_last = detail::max_of(b_count - 1, 0);
  MERGEPATH_UNROLL
  for (int step = 0; step < steps; ++step) {
    const bool has_a = i < a_end, has_b = j < b_end;
    const Key ka = a[detail::min_of(i, a_last)], kb = b[detail::min_of(j, b_last)];  // in the tile even when spent
    const bool a_first = has_a && (!has_b || comp(ka, kb));
    const bool b_first = !a_first && has_b && (!has_a || comp(kb, ka));
    const bool pair = !a_first && !b_first && has_a;  // equivalent keys: a's copy is kept
    const bool keep = (detail::keeps_a_only(Op) && a_first) || (detail::keeps_b_only(Op) && b_first) ||
                      (detail::keeps_pair(Op) && pair);
    if constexpr (keys_only)
      kept[step] = b_first ? kb : ka;
    else
      kept[step] = b_first ? ~j : i;
    kept_steps |= static_cast<unsigned>(keep) << step;
    i += a_first || pair;
    j += b_first || pair;
  }
  const int count = __popc(kept_steps);

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
  // Longer than the room only on unsorted input (overlapping walks); never past the capacity.
  const int tile_count = static_cast<int>(detail::min_of<index_t>(
      detail::min_of<index_t>(tile_out[1] - out_begin, room), detail::max_of<index_t>(capacity - out_begin, 0)));
  // Keys-only, the output's position in shared memory agrees with its place in out modulo 16 bytes.
  int shift = 0;
  if constexpr (keys_only) shift = block::address_residue<Key>(out_keys + out_begin);
  kept_t* staged = reinterpret_cast<kept_t*>(kept_bytes) + shift;
  int at = static_cast<int>(offset - out_begin);
  MERGEPATH_UNROLL
  for (int step = 0; step < steps; ++step)
    if (kept_steps >> step & 1u) {
      if (at < room) staged[at] = kept[step];
      ++at;
    }
  __syncthreads();
  if constexpr (keys_only) {
    block::store_shared_to_global<threads, steps>(staged, tile_count, out_keys + out_begin);
  } else {
    for (int k = threadIdx.x; k < tile_count; k += threads) {
      const index_t out_at = out_begin + k;
      const int source = staged[k];
      out_keys[out_at] = source >= 0 ? a[source] : b[~source];
      out_vals[out_at] = source >= 0 ? a_vals[s0.a + source] : b_vals[s0.b + ~source];
    }
  }
}

}  // namespace kernel
}  // namespace mergepath
