// The GPU merge kernels: a partition kernel (Merge Path over the whole input, one split per
// tile) and a tile kernel (load a tile's two runs, merge them in shared memory, store).
#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

#include "../block/block_merge.cuh"
#include "../block/slice_check.cuh"
#include "../block/tile_io.cuh"
#include "../block/warp_merge_path.cuh"
#include "../detail/config.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../thread/merge_path.hpp"
#include "../tuning/merge.hpp"
#include "split_repair.cuh"
#include "value_of.cuh"

namespace mergepath {
namespace kernel {

// The partition pass's store for merges: partitions[p] = a's share of output p * tile_items.
// Under an order that is not trusted the pass's last block makes them monotone (repair_ticket:
// the context's split_repair_ticket).
struct store_merge_split {
  index_t* partitions;
  unsigned long long* repair_ticket = nullptr;
  __device__ void prepare() const {}
  template <class AIt, class BIt, class Comp>
  __device__ void operator()(index_t p, AIt, index_t, BIt, index_t, index_t, index_t a_split, Comp) const {
    partitions[p] = a_split;
  }
  // Every thread of the pass, after its store.
  template <class AKey, class BKey, class Comp>
  __device__ void finish(index_t num_partitions, index_t tile_items, index_t total) const {
    if constexpr (!(block::order_is_trusted<AKey, Comp> && block::order_is_trusted<BKey, Comp>)) {
      if (repair_ticket != nullptr)
        repair_splits_when_last(
            partitions, num_partitions,
            [=](index_t q) { return split_position{detail::min_of(q * tile_items, total), false}; }, repair_ticket);
    }
  }
};

// The partition pass's samples in shared memory: every 2^shift-th element of a, then of b.
template <class AKey, class BKey>
struct partition_samples {
  MERGEPATH_HD static constexpr std::size_t align16(std::size_t n) { return (n + 15) / 16 * 16; }
  index_t a_count, b_count;  // samples of each
  __host__ __device__ partition_samples(index_t a_total, index_t b_total, int shift)
      : a_count(((a_total - 1) >> shift) + 1), b_count(((b_total - 1) >> shift) + 1) {
    if (a_total == 0) a_count = 0;
    if (b_total == 0) b_count = 0;
  }
  __host__ __device__ std::size_t b_offset() const { return align16(sizeof(AKey) * a_count); }
  __host__ __device__ std::size_t bytes() const { return align16(b_offset() + sizeof(BKey) * b_count); }
};

// The partition pass's samples, every 2^shift-th element of a and of b, gathered once (a
// sample per thread: random reads, all in flight together) into global memory laid out as
// partition_samples says, for every block of the pass to copy into shared memory.
template <class AIt, class BIt>
__global__ void merge_samples_kernel(AIt a, index_t a_count, BIt b, index_t b_count, int shift,
                                     unsigned char* samples) {
  using AKey = value_of<AIt>;
  using BKey = value_of<BIt>;
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // whatever wrote a and b
  const partition_samples<AKey, BKey> layout(a_count, b_count, shift);
  const index_t j = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (j < layout.a_count)
    reinterpret_cast<AKey*>(samples)[j] = a[j << shift];
  else if (j - layout.a_count < layout.b_count)
    reinterpret_cast<BKey*>(samples + layout.b_offset())[j - layout.a_count] = b[(j - layout.a_count) << shift];
}

// partitions[p] = where output p * tile_items splits between a and b (p = 0 .. num_partitions),
// a split per thread. One chain of dependent global loads per thread, and the pass is bound by
// those random DRAM reads' latency (docs/design/merge-and-mergesort.md#design-and-invariants).
// With samples (sample_shift >= 0, from merge_samples_kernel) each block copies them to shared
// memory and narrows every search there (merge_path_from_samples), so that each search reads
// global memory only in a window of 2^(sample_shift + 1): 15 DRAM reads instead of 26 at
// 2^26 + 2^26 int32 keys. The three kernels of a merge are launched to overlap each one's start
// with the tail of the one before (launch_dependent).
// Store takes each split (store_merge_split: as it is; the set operations move it to their
// walk's point while its keys are still in L2, kernel/set_operations.cuh).
template <bounds Bounds, int Probes, class AIt, class BIt, class Comp, class Store>
__global__ void merge_partition_kernel(AIt a, index_t a_count, BIt b, index_t b_count, index_t tile_items,
                                       index_t num_partitions, int sample_shift, const uint4* samples, Store store,
                                       Comp comp) {
  using AKey = value_of<AIt>;
  using BKey = value_of<BIt>;
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the samples, or whatever wrote a and b
  store.prepare();
  const index_t p = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t diag = detail::min_of(p * tile_items, a_count + b_count);
  if (sample_shift < 0) {
    if (p < num_partitions)
      store(p, a, a_count, b, b_count, diag, merge_path<Bounds, Probes>(a, a_count, b, b_count, diag, comp), comp);
  } else {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const partition_samples<AKey, BKey> layout(a_count, b_count, sample_shift);
    block::copy_batched(samples, detail::ceil_div<index_t>(layout.bytes(), sizeof(uint4)),
                        reinterpret_cast<uint4*>(shared_bytes));
    __syncthreads();
    if (p < num_partitions) {
      const AKey* a_samples = reinterpret_cast<const AKey*>(shared_bytes);
      const BKey* b_samples = reinterpret_cast<const BKey*>(shared_bytes + layout.b_offset());
      const merge_path_interval<index_t> window =
          merge_path_from_samples<Bounds>(a_samples, a_count, b_samples, b_count, diag, sample_shift, comp);
      store(p, a, a_count, b, b_count, diag,
            merge_path_within<Bounds, Probes>(a, b, diag, window.begin, window.end, comp), comp);
    }
  }
  store.template finish<AKey, BKey, Comp>(num_partitions, tile_items, a_count + b_count);
}

// Where one tile's inputs and output lie.
struct merge_tile {
  index_t a_begin, b_begin, out_begin;
  int a_count, b_count;
};

// The tile between output diagonals diag0 < diag1, given a's split at each.
__device__ inline merge_tile merge_tile_between(index_t a0, index_t a1, index_t diag0, index_t diag1) {
  index_t b0 = diag0 - a0;
  return {a0, b0, diag0, static_cast<int>(a1 - a0), static_cast<int>((diag1 - a1) - b0)};
}

__device__ inline merge_tile merge_tile_at(const index_t* partitions, index_t tile, int tile_items, index_t total) {
  index_t diag0 = tile * tile_items;
  index_t diag1 = detail::min_of(diag0 + tile_items, total);
  index_t a0 = partitions[tile];
  return merge_tile_between(a0, clamp_next_split(a0, partitions[tile + 1], diag0, diag1), diag0, diag1);
}

// Shared memory of one pipeline stage: the tile's keys, then (pairs) its values, each with the
// padding block::tile_padding asks for.
template <class Key, class Value, int Slots>
struct merge_stage_layout {
  static constexpr std::size_t align16(std::size_t n) { return (n + 15) / 16 * 16; }
  static constexpr std::size_t keys_bytes = align16(sizeof(Key) * Slots);
  static constexpr std::size_t value_size() {
    if constexpr (std::is_void_v<Value>)
      return 0;
    else
      return sizeof(Value);
  }
  static constexpr std::size_t values_bytes = align16(value_size() * Slots);
  static constexpr std::size_t bytes = keys_bytes + values_bytes;
};

template <class Policy, class AKeys, class AVals>
using merge_layout_of =
    merge_stage_layout<value_of<AKeys>, value_of<AVals>,
                       Policy::tuning.tile_items() + block::tile_padding<Policy::tuning.items_per_thread>>;

// What the tile kernels share: the stages in dynamic shared memory, the loads of a tile into a
// stage, and merging a landed stage out to global memory. Keys-only when AVals is no_values.
template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
struct merge_tile_io {
  static constexpr merge_tuning tuning = Policy::tuning;
  static constexpr bool has_values = !std::is_same_v<AVals, no_values>;
  using Key = value_of<AKeys>;
  using Layout = merge_layout_of<Policy, AKeys, AVals>;

  AKeys a_keys;
  AVals a_vals;
  BKeys b_keys;
  BVals b_vals;
  OutKeys out_keys;
  OutVals out_vals;
  Comp comp;
  unsigned char* shared_bytes;
  bool evict_first_stores = false;  // the output's 16-byte pieces stored evict-first in L2

  __device__ Key* stage_keys(int s) const { return reinterpret_cast<Key*>(shared_bytes + s * Layout::bytes); }
  __device__ auto stage_values(int s) const {
    if constexpr (has_values)
      return reinterpret_cast<value_of<AVals>*>(shared_bytes + s * Layout::bytes + Layout::keys_bytes);
    else
      return nullptr;
  }
  __device__ block::tile_layout runs_of(const merge_tile& t) const {
    return block::tile_layout_for<Key>(a_keys + t.a_begin, t.a_count, b_keys + t.b_begin, t.b_count);
  }

  // Issues (does not wait for) the copies of tile t into stage s.
  __device__ void issue_loads(const merge_tile& t, int s) const {
    constexpr int threads = tuning.block_threads;
    constexpr int tile_items = tuning.tile_items();
    block::tile_layout runs = runs_of(t);
    block::copy_run_to_shared<threads, tile_items>(a_keys + t.a_begin, t.a_count, stage_keys(s), runs.a_pos);
    block::copy_run_to_shared<threads, tile_items>(b_keys + t.b_begin, t.b_count, stage_keys(s), runs.b_pos);
    if constexpr (has_values) {
      block::copy_run_to_shared<threads, tile_items>(a_vals + t.a_begin, t.a_count, stage_values(s), runs.a_pos);
      block::copy_run_to_shared<threads, tile_items>(b_vals + t.b_begin, t.b_count, stage_values(s), runs.b_pos);
    }
  }

  // Merges tile t, landed in stage s and visible to the block, and stores it. Ends with a
  // barrier, after which the stage is free. Segment = block::tile_segment makes it the segmented
  // merge of the tile (segmented sort), std::nullptr_t the plain one.
  template <class Segment = std::nullptr_t>
  __device__ void merge_and_store(const merge_tile& t, int s, Segment segment = {}) const {
    constexpr int threads = tuning.block_threads;
    constexpr int items = tuning.items_per_thread;
    block::tile_layout runs = runs_of(t);
    int count = runs.count();
    Key* keys = stage_keys(s);
    Key merged[items];
    int source[items];
    if constexpr (std::is_same_v<Segment, block::tile_segment>)
      block::merge_tile_in_shared<threads, items>(keys, runs, segment, merged, source, comp);
    else
      block::merge_tile_in_shared<threads, items>(keys, runs, merged, source, comp);
    if constexpr (has_values) {
      auto* values = stage_values(s);  // laid out like the keys
      value_of<AVals> merged_values[items];
      MERGEPATH_UNROLL
      for (int i = 0; i < items; ++i) merged_values[i] = values[source[i]];
      __syncthreads();
      block::store_blocked_to_shared(merged, keys);
      block::store_blocked_to_shared(merged_values, values);
      __syncthreads();
      block::store_shared_to_global<threads, items>(keys, count, out_keys + t.out_begin, evict_first_stores);
      block::store_shared_to_global<threads, items>(values, count, out_vals + t.out_begin, evict_first_stores);
    } else {
      __syncthreads();
      block::store_blocked_to_shared(merged, keys);
      __syncthreads();
      block::store_shared_to_global<threads, items>(keys, count, out_keys + t.out_begin, evict_first_stores);
    }
    __syncthreads();
  }
};

// Asks L2 for the runs (keys, and values where there are) of tile `ahead`, if there is one:
// lane 0 of the block's first two (four) warps, one bulk prefetch each.
template <class AKeys, class AVals, class BKeys, class BVals>
__device__ void prefetch_merge_tile(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, const index_t* partitions,
                                    index_t ahead, index_t num_tiles, int tile_items, index_t total) {
  if (ahead >= num_tiles || threadIdx.x % 32 != 0 || threadIdx.x >= 4 * 32) return;
  const merge_tile t = merge_tile_at(partitions, ahead, tile_items, total);
  const int warp = static_cast<int>(threadIdx.x / 32);
  if (warp == 0) block::prefetch_to_l2(a_keys + t.a_begin, t.a_count);
  if (warp == 1) block::prefetch_to_l2(b_keys + t.b_begin, t.b_count);
  if constexpr (!std::is_same_v<AVals, no_values>) {
    if (warp == 2) block::prefetch_to_l2(a_vals + t.a_begin, t.a_count);
    if (warp == 3) block::prefetch_to_l2(b_vals + t.b_begin, t.b_count);
  }
}

// The partitioned schedule: merges tiles blockIdx.x, blockIdx.x + gridDim.x, ... whose splits
// the partition pass wrote; with two stages the next tile's loads are in flight while this one
// is merged. Each tile first asks L2 for the one prefetch_distance tiles ahead (0: none). The
// register bound (tuning.min_resident_threads) matters: left alone, the compiler spends up to 128
// registers a thread on the unrolled loops, leaving room for a quarter of the SM's threads.
template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads, Policy::tuning.min_blocks_per_sm())
    merge_tile_kernel(AKeys a_keys, AVals a_vals, BKeys b_keys, BVals b_vals, index_t total, const index_t* partitions,
                      index_t num_tiles, OutKeys out_keys, OutVals out_vals, index_t prefetch_distance,
                      bool evict_first_stores, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr int stages = tuning.stages;
  static_assert(stages == 1 || stages == 2, "merge_tuning::stages is 1 or 2");
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const merge_tile_io<Policy, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp> io{
      a_keys, a_vals, b_keys, b_vals, out_keys, out_vals, comp, shared_bytes, evict_first_stores};
  // The next merge's partition pass may get ready while this grid drains; it waits for it.
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the partition pass

  auto tile_or_empty = [&](index_t tile) {
    return tile < num_tiles ? merge_tile_at(partitions, tile, tuning.tile_items(), total) : merge_tile{0, 0, 0, 0, 0};
  };
  // The partitions of a tile are read one tile before its loads are issued, so the block never
  // waits on that global read.
  index_t tile = blockIdx.x;
  merge_tile current = tile_or_empty(tile);
  merge_tile next = tile_or_empty(tile + gridDim.x);
  // Before the tile's own loads: the other way round measured slower
  // (docs/design/merge-and-mergesort.md#what-was-tried).
  prefetch_merge_tile(a_keys, a_vals, b_keys, b_vals, partitions, tile + prefetch_distance, num_tiles,
                      tuning.tile_items(), total);
  if (tile < num_tiles) io.issue_loads(current, 0);
  block::commit_copies();
  for (int s = 0; tile < num_tiles; tile += gridDim.x) {
    if (tile != blockIdx.x)  // (persistent grids) each later tile's
      prefetch_merge_tile(a_keys, a_vals, b_keys, b_vals, partitions, tile + prefetch_distance, num_tiles,
                          tuning.tile_items(), total);
    bool has_next = tile + gridDim.x < num_tiles;
    merge_tile after_next = tile_or_empty(tile + 2 * static_cast<index_t>(gridDim.x));
    if constexpr (stages == 2) {
      if (has_next) io.issue_loads(next, s ^ 1);
      block::commit_copies();       // one group per tile, empty after the last, so that
      block::wait_for_copies<1>();  // waiting for all but the newest group means this tile landed
    } else {
      block::wait_for_copies<0>();
    }
    __syncthreads();
    io.merge_and_store(current, s);  // the stage is then free for the load two tiles ahead

    if constexpr (stages == 2) {
      s ^= 1;
    } else if (has_next) {
      io.issue_loads(next, 0);
      block::commit_copies();
    }
    current = next;
    next = after_next;
  }
}

// The chunked schedule, with no partition pass: block k merges the tiles of one contiguous chunk
// of the output, [k * chunk_tiles, (k + 1) * chunk_tiles), in order. Warps 0 and 1 find the
// chunk's first two splits with warp-wide searches of the whole input; then warp 0 finds each
// next one in the one-tile window after the last (a split moves at most a tile) while the loads
// of the current tile are in flight. It skips the partition pass and its latency floor, which
// dominates small merges; on long chunks its window searches, random DRAM reads on each tile's
// critical path, cost more than the pass does.
template <class Policy, class AKeys, class AVals, class BKeys, class BVals, class OutKeys, class OutVals, class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads, Policy::tuning.min_blocks_per_sm())
    merge_chunk_kernel(AKeys a_keys, AVals a_vals, index_t a_count, BKeys b_keys, BVals b_vals, index_t b_count,
                       index_t chunk_tiles, OutKeys out_keys, OutVals out_vals, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr index_t tile_items = tuning.tile_items();
  static_assert(tuning.stages == 1, "the chunked schedule has one stage");
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const merge_tile_io<Policy, AKeys, AVals, BKeys, BVals, OutKeys, OutVals, Comp> io{
      a_keys, a_vals, b_keys, b_vals, out_keys, out_vals, comp, shared_bytes};
  // The next split warp 0 found, published to the block by the barrier before each merge (read
  // before merge_and_store's closing barrier, rewritten after it).
  __shared__ index_t found_split;

  const index_t total = a_count + b_count;
  const index_t chunk_begin = blockIdx.x * chunk_tiles * tile_items;
  const index_t chunk_end = detail::min_of(chunk_begin + chunk_tiles * tile_items, total);
  const bool searcher = threadIdx.x < block::warp_lanes;
  // The split at diag1 = diag0 + (at most a tile) lies within a tile after the split a0 at diag0.
  auto search_after = [&](index_t a0, index_t diag0, index_t diag1) {
    return block::warp_merge_path(a_keys, b_keys, diag1, detail::max_of(a0, block::merge_path_begin(b_count, diag1)),
                                  detail::min_of(a0 + (diag1 - diag0), block::merge_path_end(a_count, diag1)), comp);
  };

  // Splits at diag0 (this tile's start) and diag1 (its end).
  index_t diag0 = chunk_begin;
  index_t diag1 = detail::min_of(diag0 + tile_items, chunk_end);
  const block::tile_splits first = block::find_tile_splits<tuning.block_threads, bounds::lower>(
      a_keys, a_count, b_keys, b_count, diag0, diag1, comp);
  index_t a0 = first.begin;
  index_t a1 = first.end;

  while (diag0 < chunk_end) {
    merge_tile current = merge_tile_between(a0, a1, diag0, diag1);
    io.issue_loads(current, 0);
    block::commit_copies();
    index_t diag2 = detail::min_of(diag1 + tile_items, chunk_end);
    if (searcher && diag2 > diag1) {
      index_t a2 = search_after(a1, diag1, diag2);
      if (threadIdx.x == 0) found_split = a2;
    }
    block::wait_for_copies<0>();
    __syncthreads();
    index_t a2 = found_split;
    io.merge_and_store(current, 0);

    diag0 = diag1, diag1 = diag2;
    a0 = a1, a1 = a2;
  }
}

}  // namespace kernel
}  // namespace mergepath
