// The GPU segmented sort and locality sort kernels (moderngpu's Segmented Sort and Locality Sort):
// head flags from indices, the segmented blocksort, and per merge pass a partition kernel that
// fills merge and copy work queues and a persistent kernel that serves them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../block/block_merge.cuh"
#include "../block/segmented_block_sort.cuh"
#include "../block/tile_io.cuh"
#include "../detail/config.hpp"
#include "../thread/segment_heads.hpp"
#include "../thread/segmented_merge.hpp"
#include "../tuning/segmented_sort.hpp"
#include "merge.cuh"
#include "mergesort.cuh"

namespace mergepath {
namespace kernel {

// flags[h / 32] |= bit h % 32 for every in-range head index h (flags zeroed before). Order and
// repeats do not matter, and indices out of [0, count) are dropped: malformed heads stay harmless.
template <class HeadsIt>
__global__ void head_flags_kernel(HeadsIt heads, index_t num_heads, index_t count, std::uint32_t* flags) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < num_heads;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    auto h = static_cast<long long>(heads[i]);
    if (h >= 0 && h < count) atomicOr(flags + h / 32, 1u << (h % 32));
  }
}

// The first and last segment head of a sorted run, as global positions; {no_head, -1} when none.
struct segment_heads {
  static constexpr index_t no_head = INT64_MAX;
  index_t first = no_head, last = -1;
  __device__ segment_heads joined(const segment_heads& later) const {
    return {detail::min_of(first, later.first), detail::max_of(last, later.last)};
  }
};

// Where the blocksort's output goes. The first merge pass reads it from `keys`; a merge tile
// that will not merge in that pass would only be copied to the pass's destination, so the
// blocksort writes such a tile to `twin_keys` as well and marks its copy status (both buffers
// hold it), which saves the pass a read of it. Which tiles: those before the tile's last head
// in an even tile (the first run of its pair) or from its first head on in an odd one (the
// second run), where the merge cannot reach; for locality_sort, every tile but the one at the
// pair's interface, where near-sorted data mixes. A wrong guess costs a write, never a result.
template <class Keys, class Vals, class TwinKeys, class TwinVals>
struct blocksort_output {
  Keys keys;
  Vals vals;
  TwinKeys twin_keys;  // the first pass's destination; unused when has_twin is false
  TwinVals twin_vals;
  unsigned char* copy_status;  // per merge tile
  bool has_twin;           // false when no merge pass follows
};

// Block k sorts tile k of keys_in (and its values) into the same range of out.keys (which may
// be keys_in): by segments when Segmented (recording the tile's first and last head in
// run_heads[k]), else wholly (locality_sort).
template <class Policy, bool Segmented, class KeysIn, class ValsIn, class Output, class Comp>
__global__ void __launch_bounds__(Policy::tuning.blocksort.block_threads, Policy::tuning.blocksort.min_blocks_per_sm())
    segmented_blocksort_kernel(KeysIn keys_in, ValsIn vals_in, index_t count, const std::uint32_t* head_flags,
                               Output out, segment_heads* run_heads, Comp comp) {
  constexpr blocksort_tuning tuning = Policy::tuning.blocksort;
  constexpr int threads = tuning.block_threads;
  constexpr int items = tuning.items_per_thread;
  constexpr int tile_items = tuning.tile_items();
  constexpr int merge_tile_items = Policy::tuning.merge.tile_items();
  constexpr bool has_values = !std::is_same_v<ValsIn, no_values>;
  using Layout = blocksort_layout<Policy, KeysIn, ValsIn>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  __shared__ block::run_heads heads_tree[Segmented ? threads : 1];
  auto* keys = reinterpret_cast<value_of<KeysIn>*>(shared_bytes);
  auto* values = reinterpret_cast<value_of<ValsIn>*>(shared_bytes + Layout::keys_bytes);

  const index_t begin = blockIdx.x * static_cast<index_t>(tile_items);
  const int tile_count = static_cast<int>(detail::min_of<index_t>(tile_items, count - begin));
  block::copy_run_to_shared<threads, tile_items>(keys_in + begin, tile_count, keys, 0);
  if constexpr (has_values) block::copy_run_to_shared<threads, tile_items>(vals_in + begin, tile_count, values, 0);
  block::commit_copies();
  block::wait_for_copies<0>();
  auto shared_values = [&] {
    if constexpr (has_values)
      return values;
    else
      return nullptr;
  }();
  block::run_heads tile_heads;
  if constexpr (Segmented) {
    const std::uint32_t thread_heads =
        head_bits<items>(head_flags, count, begin + items * static_cast<index_t>(threadIdx.x));
    tile_heads = block::sort_segmented_tile_in_shared<threads, items>(keys, shared_values, tile_count, thread_heads,
                                                                      heads_tree, comp);
    if (threadIdx.x == 0) {
      segment_heads heads;
      if (tile_heads.last >= 0) heads = {begin + tile_heads.first, begin + tile_heads.last};
      run_heads[blockIdx.x] = heads;
    }
  } else {
    block::sort_near_sorted_tile_in_shared<threads, items>(keys, shared_values, tile_count,
                                                           Policy::tuning.locality_rounds, comp);
  }
  block::store_shared_to_global<threads, items>(keys, tile_count, out.keys + begin);
  if constexpr (has_values) block::store_shared_to_global<threads, items>(values, tile_count, out.vals + begin);
  if (!out.has_twin) return;

  // The merge tiles of this tile that the first pass will leave alone get their twin copy.
  const bool first_of_pair = blockIdx.x % 2 == 0;
  const bool has_partner = !first_of_pair || blockIdx.x + 1 < gridDim.x;
  constexpr int sub_tiles = tile_items / merge_tile_items;
  for (int sub = 0; sub < sub_tiles; ++sub) {
    const int sub_begin = sub * merge_tile_items;
    if (sub_begin >= tile_count) break;
    const int sub_count = detail::min_of(merge_tile_items, tile_count - sub_begin);
    bool settled;
    if constexpr (Segmented)
      settled = first_of_pair ? sub_begin + sub_count <= tile_heads.last : sub_begin >= tile_heads.first;
    else
      settled = first_of_pair ? sub + 1 < sub_tiles && sub_begin + sub_count < tile_count : sub > 0;
    settled = settled || !has_partner;
    if (settled) {
      block::store_shared_to_global<threads, items>(keys + sub_begin, sub_count, out.twin_keys + begin + sub_begin);
      if constexpr (has_values)
        block::store_shared_to_global<threads, items>(values + sub_begin, sub_count, out.twin_vals + begin + sub_begin);
    }
    if (threadIdx.x == 0) out.copy_status[(begin + sub_begin) / merge_tile_items] = settled;
  }
}

// A merge job: tile `tile` of the pass merges keys[a_begin, + a_count) with keys[b_begin,
// + b_count) (the segmented merge: `segment` in tile coordinates).
struct merge_job {
  index_t tile;
  index_t a_begin, b_begin;
  int a_count, b_count;
  block::tile_segment segment;
};

// A pass's two work queues (filled by the partition kernel, drained by the pass kernel) and their
// counters.
struct pass_queues {
  unsigned long long merge_total, copy_total;  // jobs enqueued
  unsigned long long merge_next, copy_next;    // jobs taken
};

// One global merge pass over runs of `width` keys (a whole number of merge tiles; run 2q merges
// with run 2q + 1). Tile k is the output range [k * tile_items, (k + 1) * tile_items) in every
// pass, which is what lets a tile's copy status carry from one pass to the next.
struct segsort_pass {
  index_t count, width, num_tiles;
  int tile_items;
};

// Warp-aggregated push: returns this thread's slot in a queue whose counter is *total (for the
// threads with `push`; every thread of the warp calls it).
__device__ inline unsigned long long queue_slot(bool push, unsigned long long* total) {
  const unsigned lanes = __ballot_sync(0xffffffffu, push);
  const int lane = static_cast<int>(threadIdx.x % 32);
  const int leader = __ffs(lanes) - 1;
  unsigned long long base = 0;
  if (lanes != 0 && lane == leader) base = atomicAdd(total, static_cast<unsigned long long>(__popc(lanes)));
  base = __shfl_sync(0xffffffffu, base, leader < 0 ? 0 : leader);
  return base + static_cast<unsigned>(__popc(lanes & ((1u << lane) - 1u)));
}

// Thread t of block k finds where tile k (Threads - 1) + t starts splitting between its pair of
// runs (its end is the next thread's start: a block serves Threads - 1 tiles). A tile whose
// output comes from both runs, or from one run shifted, is a merge job; one whose output is
// already in place in the source is a copy job unless the destination holds it too (its copy
// status, set by its last copy and cleared by its last merge); otherwise it does nothing. With
// Segmented, the splits are segmented merge paths over the runs' heads (run_heads for this
// pass's runs; the kernel writes the next pass's into next_run_heads).
// Where tile `tile` of a pass lies: its pair of runs, its output diagonals in the pair and (with
// Segmented) the active segment across the runs' interface.
struct segsort_tile {
  index_t pair, a0, a_count, b_count, diag0, diag1, a_active_begin, b_active_end;
  segment_heads a_heads, b_heads;

  template <bool Segmented>
  __device__ static segsort_tile at(const segsort_pass& pass, index_t tile, const segment_heads* run_heads) {
    segsort_tile t{};
    t.pair = tile * pass.tile_items / (2 * pass.width);
    t.a0 = t.pair * 2 * pass.width;
    t.a_count = detail::min_of(pass.width, pass.count - t.a0);
    t.b_count = detail::max_of<index_t>(0, detail::min_of(pass.width, pass.count - t.a0 - pass.width));
    t.diag0 = tile * pass.tile_items - t.a0;
    t.diag1 = detail::min_of(t.diag0 + pass.tile_items, t.a_count + t.b_count);
    t.b_active_end = t.b_count;
    if constexpr (Segmented) {
      t.a_heads = run_heads[2 * t.pair];
      t.b_heads = t.b_count > 0 ? run_heads[2 * t.pair + 1] : segment_heads{};
      const index_t b0 = t.a0 + pass.width;
      t.a_active_begin = t.a_heads.last < 0 ? 0 : t.a_heads.last - t.a0;
      t.b_active_end =
          t.b_heads.first == segment_heads::no_head ? t.b_count : detail::min_of(t.b_heads.first - b0, t.b_count);
    }
    return t;
  }
  template <class Keys, class Comp>
  __device__ index_t split(Keys keys, index_t width, Comp comp) const {
    return segmented_merge_path(keys + a0, a_count, keys + a0 + width, b_count, a_active_begin, b_active_end, diag0,
                                comp);
  }
};

// For an order that is not trusted (block/slice_check.cuh): every tile's split into splits[],
// made monotone within each pair by the grid's last block (kernel/split_repair.cuh), for
// segsort_partition_kernel to take instead of searching its own.
template <bool Segmented, class Keys, class Comp>
__global__ void segsort_split_kernel(Keys keys, segsort_pass pass, const segment_heads* run_heads, index_t* splits,
                                     unsigned long long* repair_ticket, Comp comp) {
  const index_t tile = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (tile < pass.num_tiles) splits[tile] = segsort_tile::at<Segmented>(pass, tile, run_heads).split(keys, pass.width, comp);
  repair_splits_when_last(
      splits, pass.num_tiles,
      [=](index_t q) {
        const index_t a0 = q * pass.tile_items / (2 * pass.width) * 2 * pass.width;
        return split_position{q * pass.tile_items - a0, q * pass.tile_items == a0};
      },
      repair_ticket);
}

// given_splits: null, or the tiles' splits from segsort_split_kernel.
template <bool Segmented, int Threads, class Keys, class Comp>
__global__ void __launch_bounds__(Threads)
    segsort_partition_kernel(Keys keys, segsort_pass pass, const segment_heads* run_heads,
                             segment_heads* next_run_heads, unsigned char* copy_status, pass_queues* queues,
                             merge_job* merge_list, index_t* copy_list, const index_t* given_splits, Comp comp) {
  __shared__ index_t splits[Threads];
  const int tid = static_cast<int>(threadIdx.x);
  const index_t tile = blockIdx.x * static_cast<index_t>(Threads - 1) + tid;
  const bool in_range = tile < pass.num_tiles;

  index_t a0 = 0, a_count = 0, b_count = 0, diag0 = 0, diag1 = 0, a_active_begin = 0, b_active_end = 0;
  if (in_range) {
    const segsort_tile t = segsort_tile::at<Segmented>(pass, tile, run_heads);
    a0 = t.a0, a_count = t.a_count, b_count = t.b_count, diag0 = t.diag0, diag1 = t.diag1;
    a_active_begin = t.a_active_begin, b_active_end = t.b_active_end;
    if constexpr (Segmented)
      if (diag0 == 0) next_run_heads[t.pair] = t.a_heads.joined(t.b_heads);
    splits[tid] = given_splits != nullptr ? given_splits[tile] : t.split(keys, pass.width, comp);
  }
  __syncthreads();
  const bool serves = in_range && tid < Threads - 1;
  bool merge = false, copy = false;
  merge_job job{};
  if (serves) {
    const index_t split0 = splits[tid];
    const index_t split1 = diag1 == a_count + b_count ? a_count : clamp_next_split(split0, splits[tid + 1], diag0, diag1);
    const index_t b0 = a0 + pass.width;
    job.tile = tile;
    job.a_begin = a0 + split0;
    job.b_begin = b0 + (diag0 - split0);
    job.a_count = static_cast<int>(split1 - split0);
    job.b_count = static_cast<int>((diag1 - split1) - (diag0 - split0));
    job.segment = {static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(a_active_begin - split0, 0), job.a_count)),
                   static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(b_active_end - (diag0 - split0), 0), job.b_count))};
    const index_t out_begin = a0 + diag0;
    merge = (job.a_count > 0 && job.b_count > 0) || (job.a_count > 0 ? job.a_begin != out_begin : job.b_begin != out_begin);
    copy = !merge && !copy_status[tile];
    if (merge || copy) copy_status[tile] = copy;
  }
  const unsigned long long merge_slot = queue_slot(merge, &queues->merge_total);
  const unsigned long long copy_slot = queue_slot(copy, &queues->copy_total);
  if (merge) merge_list[merge_slot] = job;
  if (copy) copy_list[copy_slot] = tile;
}

// The pass's work: a fixed grid of blocks takes merge jobs, then copy jobs, from the queues until
// both are empty (the queue lengths are known only on the device, so the grid cannot be sized to
// them without a host round trip). Merges read keys_in and write keys_out; so do copies.
template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
__global__ void __launch_bounds__(Policy::tuning.merge.block_threads, Policy::tuning.merge.min_blocks_per_sm())
    segsort_pass_kernel(KeysIn keys_in, ValsIn vals_in, segsort_pass pass, pass_queues* queues,
                        const merge_job* merge_list, const index_t* copy_list, KeysOut keys_out, ValsOut vals_out,
                        Comp comp) {
  constexpr int threads = Policy::tuning.merge.block_threads;
  constexpr bool has_values = !std::is_same_v<ValsIn, no_values>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  __shared__ merge_job job;
  __shared__ index_t copy_tile;
  const merge_tile_io<merge_pass_policy<Policy>, KeysIn, ValsIn, KeysIn, ValsIn, KeysOut, ValsOut, Comp> io{
      keys_in, vals_in, keys_in, vals_in, keys_out, vals_out, comp, shared_bytes};

  const unsigned long long merges = queues->merge_total;
  while (true) {
    if (threadIdx.x == 0) {
      unsigned long long next = atomicAdd(&queues->merge_next, 1ull);
      if (next < merges)
        job = merge_list[next];
      else
        job.tile = -1;
    }
    __syncthreads();
    const merge_job current = job;
    __syncthreads();
    if (current.tile < 0) break;
    const merge_tile t{current.a_begin, current.b_begin, current.tile * pass.tile_items, current.a_count,
                       current.b_count};
    io.issue_loads(t, 0);
    block::commit_copies();
    block::wait_for_copies<0>();
    __syncthreads();
    io.merge_and_store(t, 0, current.segment);
  }

  const unsigned long long copies = queues->copy_total;
  while (true) {
    if (threadIdx.x == 0) {
      unsigned long long next = atomicAdd(&queues->copy_next, 1ull);
      copy_tile = next < copies ? copy_list[next] : -1;
    }
    __syncthreads();
    const index_t tile = copy_tile;
    __syncthreads();
    if (tile < 0) break;
    const index_t begin = tile * pass.tile_items;
    const index_t n = detail::min_of<index_t>(pass.tile_items, pass.count - begin);
    block::copy_global<threads>(keys_in + begin, n, keys_out + begin);
    if constexpr (has_values) block::copy_global<threads>(vals_in + begin, n, vals_out + begin);
  }
}

}  // namespace kernel
}  // namespace mergepath
