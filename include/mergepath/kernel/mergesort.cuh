// The GPU mergesort kernels: a blocksort (every block sorts one tile), then per merge pass a
// partition kernel (one Merge Path split per output tile) and a merge kernel (one tile per block)
// that merge the sorted runs pairwise, doubling their width.
#pragma once

#include "../block/block_sort.cuh"
#include "../block/tile_io.cuh"
#include "../detail/config.hpp"
#include "../thread/merge_path.hpp"
#include "../tuning/mergesort.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

// The merge passes' tiles as a merge policy, so that they reuse the merge's tile machinery.
template <class Policy>
struct merge_pass_policy {
  static constexpr merge_tuning tuning = Policy::tuning.merge;
};

// Shared memory of the blocksort: the tile's keys, then (pairs) its values, each padded.
template <class Policy, class Keys, class Vals>
using blocksort_layout = merge_stage_layout<value_of<Keys>, value_of<Vals>,
                                            Policy::tuning.blocksort.tile_items() +
                                                block::sort_padding<Policy::tuning.blocksort.items_per_thread>>;

// Block k sorts keys_in[k * tile, (k + 1) * tile) (and its values) into the same range of
// keys_out, which may be keys_in: the tile is in shared memory before anything is written.
template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
__global__ void __launch_bounds__(Policy::tuning.blocksort.block_threads, Policy::tuning.blocksort.min_blocks_per_sm())
    blocksort_kernel(KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out, ValsOut vals_out, Comp comp) {
  constexpr blocksort_tuning tuning = Policy::tuning.blocksort;
  constexpr int threads = tuning.block_threads;
  constexpr int tile_items = tuning.tile_items();
  constexpr bool has_values = !std::is_same_v<ValsIn, no_values>;
  using Layout = blocksort_layout<Policy, KeysIn, ValsIn>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto* keys = reinterpret_cast<value_of<KeysIn>*>(shared_bytes);
  // Each kernel of the sort lets the next one start while it drains; the next waits for it.
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // whatever wrote the keys

  const index_t begin = blockIdx.x * static_cast<index_t>(tile_items);
  const int tile_count = static_cast<int>(detail::min_of<index_t>(tile_items, count - begin));
  block::copy_run_to_shared<threads, tile_items>(keys_in + begin, tile_count, keys, 0);
  if constexpr (has_values) {
    auto* values = reinterpret_cast<value_of<ValsIn>*>(shared_bytes + Layout::keys_bytes);
    block::copy_run_to_shared<threads, tile_items>(vals_in + begin, tile_count, values, 0);
    block::commit_copies();
    block::wait_for_copies<0>();
    block::sort_tile_in_shared<threads, tuning.items_per_thread>(keys, values, tile_count, comp);
    block::store_shared_to_global<threads, tuning.items_per_thread>(values, tile_count, vals_out + begin);
  } else {
    block::commit_copies();
    block::wait_for_copies<0>();
    block::sort_tile_in_shared<threads, tuning.items_per_thread>(keys, nullptr, tile_count, comp);
  }
  block::store_shared_to_global<threads, tuning.items_per_thread>(keys, tile_count, keys_out + begin);
}

// One merge pass: sorted runs of `width` keys (the last may be shorter), run 2r merged with run
// 2r + 1. Each pair's output is cut into tiles of tile_items (its last tile may be shorter), and
// the tiles of all pairs are numbered in order.
struct merge_pass {
  index_t count;           // keys in all
  index_t width;           // keys per sorted run
  index_t tiles_per_pair;  // tiles of a full pair, ceil(2 width / tile_items)
  int tile_items;

  MERGEPATH_HD index_t num_tiles() const {
    index_t pair_items = 2 * width;
    index_t full_pairs = count / pair_items;
    return full_pairs * tiles_per_pair + detail::ceil_div(count - full_pairs * pair_items, index_t{tile_items});
  }
};

// Where one tile of a merge pass lies: its pair of runs and its output diagonals within the pair.
struct merge_pass_tile {
  index_t a_begin;  // the pair's first run starts here; its second at a_begin + width
  index_t a_count, b_count;
  index_t diag0, diag1;

  MERGEPATH_HD merge_pass_tile(const merge_pass& pass, index_t tile) {
    index_t pair = tile / pass.tiles_per_pair;
    a_begin = pair * 2 * pass.width;
    a_count = detail::min_of(pass.width, pass.count - a_begin);
    b_count = detail::max_of<index_t>(0, detail::min_of(pass.width, pass.count - a_begin - pass.width));
    diag0 = (tile - pair * pass.tiles_per_pair) * pass.tile_items;
    diag1 = detail::min_of(diag0 + pass.tile_items, a_count + b_count);
  }
};

// Whether a pass's partition searches narrow themselves with samples of the whole keys array
// taken every 2^shift-th key: its runs must start on samples (a run's samples are then a slice
// of them) and hold at least min_run keys (mergesort_tuning::min_sampled_run).
MERGEPATH_HD inline bool pass_uses_samples(const merge_pass& pass, int sample_shift, index_t min_run) {
  return sample_shift >= 0 && pass.width >= min_run && pass.width % (index_t{1} << sample_shift) == 0;
}

// partitions[t] = where tile t's output starts splitting between its pair's two runs. With
// samples of the keys (sample_shift >= 0: every 2^sample_shift-th key, from merge_samples_kernel,
// and pass_uses_samples), each block copies them to shared memory and each search narrows
// itself there first, reading global memory only in a window of 2^(sample_shift + 1) keys, as the
// merge's partition pass does (kernel/merge.cuh).
template <class Keys, class Comp>
__global__ void mergesort_partition_kernel(Keys keys, merge_pass pass, int sample_shift, const uint4* samples,
                                           index_t* partitions, Comp comp) {
  using Key = value_of<Keys>;
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the samples, or the pass (or blocksort) before, which wrote the runs
  const index_t tile = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (sample_shift < 0) {
    if (tile >= pass.num_tiles()) return;
    merge_pass_tile t(pass, tile);
    partitions[tile] =
        merge_path(keys + t.a_begin, t.a_count, keys + t.a_begin + pass.width, t.b_count, t.diag0, comp);
    return;
  }
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const partition_samples<Key, Key> layout(pass.count, 0, sample_shift);
  block::copy_batched(samples, detail::ceil_div<index_t>(layout.bytes(), sizeof(uint4)),
                      reinterpret_cast<uint4*>(shared_bytes));
  __syncthreads();
  if (tile >= pass.num_tiles()) return;
  merge_pass_tile t(pass, tile);
  const Key* run_samples = reinterpret_cast<const Key*>(shared_bytes);
  const merge_path_interval<index_t> window = merge_path_from_samples(
      run_samples + (t.a_begin >> sample_shift), t.a_count, run_samples + ((t.a_begin + pass.width) >> sample_shift),
      t.b_count, t.diag0, sample_shift, comp);
  partitions[tile] = merge_path_within(keys + t.a_begin, keys + t.a_begin + pass.width, t.diag0, window.begin,
                                       window.end, comp);
}

// Block k merges tile k of the pass from keys_in into keys_out (never the same buffer). (Blocks
// finding their own splits with warp-wide searches instead of a partition pass measured 7% slower
// on an H200: bench/NOTES.md.)
template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
__global__ void __launch_bounds__(Policy::tuning.merge.block_threads, Policy::tuning.merge.min_blocks_per_sm())
    mergesort_merge_kernel(KeysIn keys_in, ValsIn vals_in, merge_pass pass, const index_t* partitions, KeysOut keys_out,
                           ValsOut vals_out, Comp comp) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  const merge_tile_io<merge_pass_policy<Policy>, KeysIn, ValsIn, KeysIn, ValsIn, KeysOut, ValsOut, Comp> io{
      keys_in, vals_in, keys_in, vals_in, keys_out, vals_out, comp, shared_bytes};
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the partition kernel
  const index_t tile = blockIdx.x;
  const merge_pass_tile t(pass, tile);
  // The tile ends where the next one starts, or at the end of its pair.
  index_t a0 = partitions[tile];
  index_t a1 = t.diag1 == t.a_count + t.b_count ? t.a_count : partitions[tile + 1];
  a1 = clamp_next_split(a0, a1, t.diag0, t.diag1);
  const index_t b_begin = t.a_begin + pass.width;
  const merge_tile current{t.a_begin + a0, b_begin + (t.diag0 - a0), t.a_begin + t.diag0, static_cast<int>(a1 - a0),
                           static_cast<int>((t.diag1 - a1) - (t.diag0 - a0))};
  io.issue_loads(current, 0);
  block::commit_copies();
  block::wait_for_copies<0>();
  __syncthreads();
  io.merge_and_store(current, 0);
}

}  // namespace kernel
}  // namespace mergepath
