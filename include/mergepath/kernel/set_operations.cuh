// The GPU set-operation kernels: the merge's partition pass storing a set_path point per tile
// (store_set_split), and a one-pass tile kernel: keys in shared memory, each thread's share
// merged (set_operation_merge_n), the tile's output offset by decoupled look-back, and the
// compacted output.
#pragma once

#include <cstddef>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>
#include <type_traits>

#include "../detail/config.hpp"
#include "../detail/launch.cuh"
#include "../thread/set_operations.hpp"
#include "../tuning/set_operations.hpp"
#include "merge.cuh"
#include "result_counts.cuh"

namespace mergepath {
namespace kernel {

// The tiles' output offsets, found in the tile kernel's one pass by decoupled look-back (CUB's
// tile status and prefix callback, as its single-pass scans use them).
using set_tile_state = cub::ScanTileState<index_t>;

// The partition pass's store for the set operations (merge_partition_kernel): splits[p] = the
// walk's point at p * tile_span keys, moved from merge_path's split there within the run it may
// cut (set_path_from_merge_path), whose keys the search has just brought into L2. It also readies
// the tiles' look-back status (one thread per tile, as the status expects).
template <class AIt, class BIt>
struct store_set_split {
  set_split<index_t>* splits;
  mutable set_tile_state tile_state;  // InitializeStatus is not const
  index_t num_tiles;
  __device__ void prepare() const { tile_state.InitializeStatus(static_cast<int>(num_tiles)); }
  template <class Comp>
  __device__ void operator()(index_t p, AIt a, index_t a_count, BIt b, index_t b_count, index_t diag, index_t a_split,
                             Comp comp) const {
    splits[p] = set_path_from_merge_path(a, a_count, b, b_count, diag, a_split, comp);
  }
  template <class AKey, class BKey, class Comp>
  __device__ void finish(index_t, index_t, index_t) const {}
};

// One tile per block, in one pass: a later tile's runs asked into L2 (prefetch_distance tiles
// ahead), the tile's keys in shared memory (16-byte copies where the runs allow), a merge_path
// split per thread (ties ordered as set_merge_order says), each thread's share merged into
// registers with a bit of whether each step keeps its key (set_operation_merge_n: no run
// searches but one at the share's start), a block scan of the threads' counts whose prefix comes
// from the tiles before (look-back), then the tile's output compacted in shared memory and stored
// coalesced. Keys-only, the kept keys are staged over the tile's keys, placed so that they leave
// in 16-byte pieces; by key, where each came from, for its value. A tile holds at most threads x
// items keys (tiles are spaced one less apart, set_operation_tuning::tile_span), so each thread
// merges exactly items. The last tile publishes the total to the host as soon as its look-back
// ends (no kernel after this one). For any data nothing outside a, b, shared memory and
// out[0, capacity) is touched.
template <class Policy, set_op Op, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals,
          class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads,
                                  detail::launch_min_blocks(Policy::tuning.block_threads,
                                                            Policy::tuning.block_threads * Policy::tuning.min_blocks))
    set_operation_tile_kernel(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, const set_split<index_t>* splits,
                              index_t num_tiles, set_tile_state tile_state, count_words total, index_t capacity,
                              OutKeys out_keys, OutVals out_vals, index_t prefetch_distance, Comp comp) {
  constexpr int threads = Policy::tuning.block_threads;
  constexpr int items = Policy::tuning.items_per_thread;
  constexpr int room = Policy::tuning.tile_items();
  static_assert(Policy::tuning.tile_span() == room - 1, "a split may fall a step short: tiles leave a slot");
  using Key = value_of<AKeys>;
  constexpr bool keys_only = std::is_same_v<OutVals, std::nullptr_t>;
  // A tile's counts fit an int (the look-back adds in 64 bits); symmetric difference's kernel
  // spilled 84 bytes of registers with an int scan (ptxas, sm_90), so it keeps 64-bit counts.
  using count_t = std::conditional_t<Op == set_op::symmetric_difference, index_t, int>;
  using scan = cub::BlockScan<count_t, threads>;
  using tile_prefix = cub::TilePrefixCallbackOp<index_t, plus<>, set_tile_state>;
  __shared__ __align__(16) unsigned char key_bytes[sizeof(Key) * (room + block::tile_padding<items>)];
  __shared__ int staged_sources[keys_only ? 1 : room];  // by key: where each output comes from
  __shared__ typename scan::TempStorage scan_storage;
  __shared__ typename tile_prefix::TempStorage prefix_storage;
  __shared__ index_t tile_out[2];  // the tile's output range

  detail::wait_for_prior_grid();  // the splits and the look-back status
  const index_t tile = blockIdx.x;
  const set_split<index_t> s0 = splits[tile], s1 = splits[tile + 1];
  // The tile prefetch_distance ahead, into L2: its block's loads then wait on L2, not on DRAM.
  const index_t ahead = tile + prefetch_distance;
  constexpr int prefetching_warps = keys_only ? 2 : 4;  // a run each: a's and b's keys (and values)
  if (prefetch_distance > 0 && ahead < num_tiles && threadIdx.x % 32 == 0 && threadIdx.x < prefetching_warps * 32) {
    const set_split<index_t> p0 = splits[ahead], p1 = splits[ahead + 1];
    const int warp = static_cast<int>(threadIdx.x / 32);
    if (warp == 0) block::prefetch_to_l2(a_keys + p0.a, p1.a - p0.a);
    if (warp == 1) block::prefetch_to_l2(b_keys + p0.b, p1.b - p0.b);
    if constexpr (!keys_only) {
      if (warp == 2) block::prefetch_to_l2(a_vals + p0.a, p1.a - p0.a);
      if (warp == 3) block::prefetch_to_l2(b_vals + p0.b, p1.b - p0.b);
    }
  }
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

  const int diag = detail::min_of(static_cast<int>(threadIdx.x) * items, a_count + b_count);
  const int i = merge_path<set_merge_order(Op)>(keys + runs.a_pos, a_count, keys + runs.b_pos, b_count, diag, comp);
  Key out[items];
  int source[items];  // positions in keys
  unsigned kept =
      set_operation_merge_n<Op, items>(keys, runs.a_pos, runs.a_pos + a_count, runs.b_pos, runs.b_pos + b_count,
                                       runs.a_pos + i, runs.b_pos + diag - i, out, source, comp);
  const int steps = a_count + b_count - diag;  // this thread's share of the tile
  if (steps < items) kept &= (1u << steps) - 1u;
  const int count = __popc(kept);

  // The block's scan, then warp 0's look-back for the tiles before (CUB's block scan with the
  // look-back as its prefix callback spilled 4-12 bytes of registers a thread).
  count_t thread_offset = 0, tile_total = 0;  // thread_offset: where in the tile's output it starts
  scan(scan_storage).ExclusiveSum(count_t{count}, thread_offset, tile_total);
  if (threadIdx.x < 32) {
    index_t prefix = 0;
    if (tile > 0)
      prefix = tile_prefix(tile_state, prefix_storage, plus<>{}, static_cast<int>(tile))(index_t{tile_total});
    else if (threadIdx.x == 0 && num_tiles > 1)
      tile_state.SetInclusive(0, index_t{tile_total});
    if (threadIdx.x == 0) {
      tile_out[0] = prefix;
      tile_out[1] = prefix + tile_total;
      if (tile == num_tiles - 1) store_counts(total, prefix + tile_total, 0);  // before the stores: the host goes on
    }
  }
  __syncthreads();  // every walk is done: the tile's keys may be overwritten (keys-only)
  const index_t out_begin = tile_out[0];
  // Never past the capacity (unsorted input may make tiles overlap).
  const int tile_count = static_cast<int>(
      detail::min_of<index_t>(tile_out[1] - out_begin, detail::max_of<index_t>(capacity - out_begin, 0)));
  int at = static_cast<int>(thread_offset);  // below room: each thread keeps at most items
  if constexpr (keys_only) {
    // Placed to agree with out modulo 16 bytes, so that the output leaves in 16-byte pieces.
    Key* staged = keys + block::address_residue<Key>(out_keys + out_begin);
    MERGEPATH_UNROLL
    for (int k = 0; k < items; ++k)
      if (kept >> k & 1u) staged[at++] = out[k];
    __syncthreads();
    block::store_shared_to_global<threads, items>(staged, tile_count, out_keys + out_begin);
  } else {
    MERGEPATH_UNROLL
    for (int k = 0; k < items; ++k)
      if (kept >> k & 1u) staged_sources[at++] = source[k];
    __syncthreads();
    for (int k = threadIdx.x; k < tile_count; k += threads) {
      const index_t out_at = out_begin + k;
      const int from = staged_sources[k];  // b's run lies after a's
      out_keys[out_at] = keys[from];
      out_vals[out_at] = from < runs.b_pos ? a_vals[s0.a + (from - runs.a_pos)] : b_vals[s0.b + (from - runs.b_pos)];
    }
  }
}

}  // namespace kernel
}  // namespace mergepath
