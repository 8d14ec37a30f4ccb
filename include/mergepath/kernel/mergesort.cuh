// The GPU mergesort kernels: a blocksort (every block sorts one tile), then per merge pass a
// partition kernel (one Merge Path split per output tile) and a merge kernel (one tile per block)
// that merge the sorted runs pairwise, doubling their width.
#pragma once

#include "../block/block_sort.cuh"
#include "../block/bulk_copy.cuh"
#include "../block/cluster_merge.cuh"
#include "../block/group_multiway_split.cuh"
#include "../block/tile_io.cuh"
#include "../block/warp_merge_path.cuh"
#include "../detail/config.hpp"
#include "../detail/launch.cuh"
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

// The cluster sort's tiles as a blocksort tuning (mergesort_tuning::cluster_sort).
template <class Policy>
struct cluster_sort_policy {
  static constexpr mergesort_tuning tuning = [] {
    mergesort_tuning t = Policy::tuning;
    t.blocksort = {t.cluster_sort.block_threads, t.cluster_sort.items_per_thread, t.cluster_sort.block_threads};
    return t;
  }();
};

// A policy whose cluster sort takes the tile of Policy's small_cluster_sort.
template <class Policy>
struct small_cluster_sort_policy {
  static constexpr mergesort_tuning tuning = [] {
    mergesort_tuning t = Policy::tuning;
    t.cluster_sort = t.small_cluster_sort;
    t.small_cluster_sort = {};
    return t;
  }();
};

// Shared memory of the cluster sort: the block's tile (keys, then values) as the blocksort holds
// it, then as much again for the merge rounds' staging.
template <class Policy, class Keys, class Vals>
struct cluster_sort_layout {
  using tile = blocksort_layout<cluster_sort_policy<Policy>, Keys, Vals>;
  static constexpr std::size_t bytes = 2 * tile::bytes;
};

// Each cluster of blocks sorts cluster_blocks tiles of keys_in (and values) into the same range
// of keys_out: every block sorts its tile in shared memory as blocksort_kernel does, then the
// cluster merges its tiles (block::merge_cluster_tiles) and each block stores its slice. The
// grid is a whole number of clusters; blocks past count hold empty tiles.
template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
__global__ void __launch_bounds__(Policy::tuning.cluster_sort.block_threads)
    cluster_sort_kernel(KeysIn keys_in, ValsIn vals_in, index_t count, KeysOut keys_out, ValsOut vals_out,
                        Comp comp) {
  constexpr cluster_sort_tuning tuning = Policy::tuning.cluster_sort;
  constexpr int threads = tuning.block_threads;
  constexpr int tile_items = tuning.tile_items();
  constexpr bool has_values = !std::is_same_v<ValsIn, no_values>;
  using Layout = cluster_sort_layout<Policy, KeysIn, ValsIn>;
  using Key = value_of<KeysIn>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  auto* keys = reinterpret_cast<Key*>(shared_bytes);
  auto* staged = reinterpret_cast<Key*>(shared_bytes + Layout::tile::bytes);
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // whatever wrote the keys

  const index_t cluster_tiles = block::cluster_block_count();
  const index_t cluster_begin = blockIdx.x / cluster_tiles * cluster_tiles * tile_items;
  const int cluster_count = static_cast<int>(detail::min_of<index_t>(cluster_tiles * tile_items, count - cluster_begin));
  const index_t begin = blockIdx.x * static_cast<index_t>(tile_items);
  const int tile_count = static_cast<int>(detail::max_of<index_t>(0, detail::min_of<index_t>(tile_items, count - begin)));
  const index_t at = detail::min_of(begin, count);  // blocks past count hold nothing
  block::copy_run_to_shared<threads, tile_items>(keys_in + at, tile_count, keys, 0);
  if constexpr (has_values) {
    using Value = value_of<ValsIn>;
    auto* values = reinterpret_cast<Value*>(shared_bytes + Layout::tile::keys_bytes);
    auto* staged_values = reinterpret_cast<Value*>(shared_bytes + Layout::tile::bytes + Layout::tile::keys_bytes);
    block::copy_run_to_shared<threads, tile_items>(vals_in + at, tile_count, values, 0);
    block::commit_copies();
    block::wait_for_copies<0>();
    block::sort_tile_in_shared<threads, tuning.items_per_thread>(keys, values, tile_count, comp);
    block::merge_cluster_tiles<threads, tuning.items_per_thread>(keys, values, staged, staged_values, cluster_count,
                                                                 comp);
    block::store_shared_to_global<threads, tuning.items_per_thread>(values, tile_count, vals_out + at);
  } else {
    block::commit_copies();
    block::wait_for_copies<0>();
    block::sort_tile_in_shared<threads, tuning.items_per_thread>(keys, nullptr, tile_count, comp);
    block::merge_cluster_tiles<threads, tuning.items_per_thread>(keys, nullptr, staged, nullptr, cluster_count, comp);
  }
  block::store_shared_to_global<threads, tuning.items_per_thread>(keys, tile_count, keys_out + at);
}

// The four-way passes' tiles (mergesort_tuning::four_way).
template <class Policy>
struct four_way_policy {
  static constexpr four_way_tuning tuning = Policy::tuning.four_way;
};

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
// Under an order that is not trusted the pass's last block makes each pair's splits monotone
// (repair_ticket: the context's split_repair_ticket; kernel/split_repair.cuh).
template <class Keys, class Comp>
__global__ void mergesort_partition_kernel(Keys keys, merge_pass pass, int sample_shift, const uint4* samples,
                                           index_t* partitions, unsigned long long* repair_ticket, Comp comp) {
  using Key = value_of<Keys>;
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the samples, or the pass (or blocksort) before, which wrote the runs
  const index_t tile = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t num_tiles = pass.num_tiles();
  if (sample_shift < 0) {
    if (tile < num_tiles) {
      merge_pass_tile t(pass, tile);
      partitions[tile] =
          merge_path(keys + t.a_begin, t.a_count, keys + t.a_begin + pass.width, t.b_count, t.diag0, comp);
    }
  } else {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    const partition_samples<Key, Key> layout(pass.count, 0, sample_shift);
    block::copy_batched(samples, detail::ceil_div<index_t>(layout.bytes(), sizeof(uint4)),
                        reinterpret_cast<uint4*>(shared_bytes));
    __syncthreads();
    if (tile < num_tiles) {
      merge_pass_tile t(pass, tile);
      const Key* run_samples = reinterpret_cast<const Key*>(shared_bytes);
      const merge_path_interval<index_t> window =
          merge_path_from_samples(run_samples + (t.a_begin >> sample_shift), t.a_count,
                                  run_samples + ((t.a_begin + pass.width) >> sample_shift), t.b_count, t.diag0,
                                  sample_shift, comp);
      partitions[tile] = merge_path_within(keys + t.a_begin, keys + t.a_begin + pass.width, t.diag0, window.begin,
                                           window.end, comp);
    }
  }
  if constexpr (!block::order_is_trusted<Key, Comp>) {
    if (repair_ticket != nullptr)
      repair_splits_when_last(
          partitions, num_tiles,
          [=](index_t q) {
            const merge_pass_tile t(pass, q);
            return split_position{t.diag0, t.diag0 == 0};
          },
          repair_ticket);
  }
}

// Block k merges tile k of the pass from keys_in into keys_out (never the same buffer). Its
// splits come from the partition kernel, or, where partitions is null (small passes:
// mergesort_tuning::self_partition_waves), from two warp-wide searches of its own.
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
  index_t a0, a1;
  if (partitions != nullptr) {
    a0 = partitions[tile];
    a1 = t.diag1 == t.a_count + t.b_count ? t.a_count : partitions[tile + 1];
    a1 = clamp_next_split(a0, a1, t.diag0, t.diag1);
  } else {
    const block::tile_splits splits = block::find_tile_splits<Policy::tuning.merge.block_threads, bounds::lower>(
        keys_in + t.a_begin, t.a_count, keys_in + (t.a_begin + pass.width), t.b_count, t.diag0, t.diag1, comp);
    a0 = splits.begin;
    a1 = splits.end;
  }
  const index_t b_begin = t.a_begin + pass.width;
  const merge_tile current{t.a_begin + a0, b_begin + (t.diag0 - a0), t.a_begin + t.diag0, static_cast<int>(a1 - a0),
                           static_cast<int>((t.diag1 - a1) - (t.diag0 - a0))};
  io.issue_loads(current, 0);
  block::commit_copies();
  block::wait_for_copies<0>();
  __syncthreads();
  io.merge_and_store(current, 0);
}

// One four-way merge pass: runs of `width` keys (the last may be shorter) in groups of four
// consecutive runs (the last group may have fewer), each group's output cut into tiles of
// tile_items (its last tile may be shorter), the tiles of all groups numbered in order.
struct merge4_pass {
  static constexpr int ways = 4;
  index_t count;            // keys in all
  index_t width;            // keys per sorted run
  index_t tiles_per_group;  // tiles of a full group, ceil(4 width / tile_items)
  int tile_items;

  MERGEPATH_HD index_t num_tiles() const {
    index_t group_items = ways * width;
    index_t full_groups = count / group_items;
    return full_groups * tiles_per_group + detail::ceil_div(count - full_groups * group_items, index_t{tile_items});
  }
};

// Where one tile of a four-way pass lies: its group's runs and its output diagonals in the group.
struct merge4_pass_tile {
  index_t group_begin;  // run r starts at group_begin + r * width
  index_t run_count[merge4_pass::ways];
  index_t diag0, diag1, total;  // total: the group's keys

  MERGEPATH_HD merge4_pass_tile(const merge4_pass& pass, index_t tile) {
    index_t group = tile / pass.tiles_per_group;
    group_begin = group * merge4_pass::ways * pass.width;
    total = 0;
    MERGEPATH_UNROLL
    for (int r = 0; r < merge4_pass::ways; ++r) {
      index_t begin = group_begin + r * pass.width;
      run_count[r] = detail::max_of<index_t>(0, detail::min_of(pass.width, pass.count - begin));
      total += run_count[r];
    }
    diag0 = (tile - group * pass.tiles_per_group) * pass.tile_items;
    diag1 = detail::min_of(diag0 + pass.tile_items, total);
  }
  // Run r's count, for a run-time r, without indexing the array (which would move it to local memory).
  MERGEPATH_HD index_t count_of(int r) const {
    index_t c = run_count[0];
    MERGEPATH_UNROLL
    for (int q = 1; q < merge4_pass::ways; ++q)
      if (q == r) c = run_count[q];
    return c;
  }
};

// splits[4 t + r] = how many of run r of its group come before tile t's output. Four lanes
// search each split together (block::group_multiway_selection), lane r holding run r; whole
// warps search, those past the last tile with empty runs. Index: the search's arithmetic, 32-bit
// where the runs allow (the search is bound by its instructions' latency).
template <class Keys, class Index, class Comp>
__global__ void mergesort_partition4_kernel(Keys keys, merge4_pass pass, index_t* splits, Comp comp) {
  constexpr int ways = merge4_pass::ways;
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the pass (or blocksort) before, which wrote the runs
  const index_t thread = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t tile = thread / ways;
  const int run = static_cast<int>(thread % ways);
  const bool live = tile < pass.num_tiles();
  const merge4_pass_tile t(pass, live ? tile : 0);
  const index_t run_begin = detail::min_of(t.group_begin + run * pass.width, pass.count);
  const block::group_multiway_selection<ways, Keys, Index, Comp> selection(
      keys + run_begin, static_cast<Index>(live ? t.count_of(run) : 0), comp);
  const Index split = selection.split(static_cast<Index>(t.diag0));
  if (live) splits[ways * tile + run] = split;
}

// Whether a four-way pass's searches may use 32-bit arithmetic: the selection computes
// positions up to 8 times a run's width.
MERGEPATH_HD inline bool four_way_fits_int(const merge4_pass& pass) { return pass.width <= (index_t{1} << 27); }

// Where a four-way tile's pieces lie. The tile ends where the next one starts, or at the end of
// its group. Unsorted input may give splits that do not grow, or a tile longer than its
// diagonals: the pieces are clamped so that every read stays in its run and every write in the
// tile (the output is then unspecified).
struct merge4_tile_plan {
  index_t from[merge4_pass::ways];  // where each piece starts in the input
  index_t out_begin;                // where the tile's output starts
  int count[merge4_pass::ways];     // each piece's length
  int at[merge4_pass::ways];        // and its position in shared memory (block::aligned_position)

  template <class KeysIn>
  __device__ merge4_tile_plan(const merge4_pass& pass, index_t tile, const index_t* splits, KeysIn keys_in) {
    constexpr int ways = merge4_pass::ways;
    const merge4_pass_tile t(pass, tile);
    const bool last_in_group = t.diag1 == t.total;
    int room = static_cast<int>(t.diag1 - t.diag0), slot = 0;
    MERGEPATH_UNROLL
    for (int r = 0; r < ways; ++r) {
      const index_t begin = splits[ways * tile + r];
      const index_t end = last_in_group ? t.run_count[r] : splits[ways * tile + ways + r];
      count[r] = static_cast<int>(detail::min_of<index_t>(detail::max_of<index_t>(end - begin, 0), room));
      room -= count[r];
      from[r] = t.group_begin + r * pass.width + begin;
      at[r] = block::aligned_position<value_of<KeysIn>>(keys_in + from[r], slot);
      slot = at[r] + count[r];
    }
    out_begin = t.group_begin + t.diag0;
  }
};

// Shared memory of a four-way tile: the four pieces of the runs (their keys, and for pairs,
// once the keys are merged, their values), then the first round's two merged results (keys, and
// for pairs each one's position among the pieces, 16-bit where the tile allows). Shared memory
// bounds the pairs kernel's occupancy, so 16-bit positions and the values in the keys' place
// both paid over a buffer of values of its own and 32-bit positions.
template <class Policy, class Key, class Value>
struct merge4_layout {
  static constexpr four_way_tuning tuning = Policy::tuning.four_way;
  using source_type = std::conditional_t<(tuning.tile_items() + 64 < 65536), unsigned short, int>;
  static constexpr std::size_t align16(std::size_t n) { return (n + 15) / 16 * 16; }
  static constexpr bool has_values = !std::is_void_v<Value>;
  static constexpr std::size_t piece_size() {
    if constexpr (has_values)
      return detail::max_of(sizeof(Key), sizeof(Value));
    else
      return sizeof(Key);
  }
  // Each piece starts where its global address agrees modulo 16 bytes (block::aligned_position:
  // fewer than 16 / sizeof(Key) slots after the piece before), and serial_merge_n reads up to
  // items_per_thread + 1 slots past the last.
  static constexpr int piece_gap = sizeof(Key) < 16 ? static_cast<int>(16 / sizeof(Key)) : 1;
  static constexpr int piece_slots = tuning.tile_items() + 4 * piece_gap + tuning.items_per_thread + 1;
  static constexpr int merged_slots = tuning.block_threads * tuning.items_per_thread + tuning.items_per_thread + 1;
  static constexpr std::size_t pieces_offset = 0;
  // Keys only, the first round writes its results over the pieces it has read (after a
  // barrier): a tile then takes half the shared memory, and 12 blocks fit an SM instead of 9.
  // Pairs' values land in the pieces' place while the first round's results are in use.
  static constexpr bool merged_in_place = !has_values;
  static constexpr std::size_t merged_keys_offset =
      merged_in_place ? pieces_offset : pieces_offset + align16(piece_size() * piece_slots);
  static constexpr std::size_t merged_sources_offset =
      merged_in_place ? align16(sizeof(Key) * detail::max_of(piece_slots, merged_slots))
                      : merged_keys_offset + align16(sizeof(Key) * merged_slots);
  // The loads' barrier (block::shared_run_loader), then the tile's plan.
  static constexpr std::size_t barrier_offset =
      merged_sources_offset + (has_values ? align16(sizeof(source_type) * merged_slots) : 0);
  static constexpr std::size_t plan_offset = barrier_offset + 16;
  static constexpr std::size_t bytes = plan_offset + align16(sizeof(merge4_tile_plan));
};

// Block k merges tile k of a four-way pass from keys_in into keys_out (never the same buffer):
// loads the four pieces, merges 0 + 1 and 2 + 3 in shared memory, then those two into
// registers, and stores through shared memory.
template <class Policy, class KeysIn, class ValsIn, class KeysOut, class ValsOut, class Comp>
__global__ void __launch_bounds__(Policy::tuning.four_way.block_threads, Policy::tuning.four_way.min_blocks_per_sm())
    mergesort_merge4_kernel(KeysIn keys_in, ValsIn vals_in, merge4_pass pass, const index_t* splits, KeysOut keys_out,
                            ValsOut vals_out, Comp comp) {
  constexpr four_way_tuning tuning = Policy::tuning.four_way;
  constexpr int threads = tuning.block_threads;
  constexpr int items = tuning.items_per_thread;
  constexpr int ways = merge4_pass::ways;
  constexpr bool has_values = !std::is_same_v<ValsIn, no_values>;
  using Key = value_of<KeysIn>;
  using Layout = merge4_layout<Policy, Key, value_of<ValsIn>>;
  using source_type = typename Layout::source_type;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* pieces = reinterpret_cast<Key*>(shared_bytes + Layout::pieces_offset);
  Key* merged = reinterpret_cast<Key*>(shared_bytes + Layout::merged_keys_offset);
  auto* merged_sources = reinterpret_cast<source_type*>(shared_bytes + Layout::merged_sources_offset);
  block::shared_run_loader loader(reinterpret_cast<std::uint64_t*>(shared_bytes + Layout::barrier_offset));
  detail::allow_dependent_launch();
  detail::wait_for_prior_grid();  // the partition kernel

  // One warp works out the plan and hands it to the others: its 64-bit arithmetic, repeated by
  // every warp, was a third of the tile's instructions.
  auto* shared_plan = reinterpret_cast<merge4_tile_plan*>(shared_bytes + Layout::plan_offset);
  if (threadIdx.x < block::warp_lanes) {
    const merge4_tile_plan plan(pass, blockIdx.x, splits, keys_in);
    if (threadIdx.x == 0) *shared_plan = plan;
  }
  __syncthreads();
  const merge4_tile_plan plan = *shared_plan;
  const int(&count)[ways] = plan.count;
  const int(&at)[ways] = plan.at;
  MERGEPATH_UNROLL
  for (int r = 0; r < ways; ++r)
    loader.copy<threads, tuning.tile_items()>(keys_in + plan.from[r], count[r], pieces, at[r]);
  loader.finish();
  loader.wait();

  // Round one: x = merge(0, 1) into merged[0, nx), y = merge(2, 3) into merged[y_begin, ...);
  // each thread merges `items` outputs of one of them.
  const int nx = count[0] + count[1], ny = count[2] + count[3];
  const int x_threads = detail::ceil_div(nx, items);
  const int y_begin = x_threads * items;
  {
    const bool in_x = static_cast<int>(threadIdx.x) < x_threads;
    const int a_at = in_x ? at[0] : at[2], a_count = in_x ? count[0] : count[2];
    const int b_at = in_x ? at[1] : at[3], b_count = in_x ? count[1] : count[3];
    const int diag = (in_x ? static_cast<int>(threadIdx.x) : static_cast<int>(threadIdx.x) - x_threads) * items;
    const bool merges = diag < a_count + b_count;
    Key out[items];
    int source[items];
    if (merges) {
      const int a_split = merge_path(pieces + a_at, a_count, pieces + b_at, b_count, diag, comp);
      serial_merge_n<items>(pieces, a_at + a_split, a_at + a_count, b_at + diag - a_split, b_at + b_count, out, source,
                            comp);
    }
    if constexpr (Layout::merged_in_place) __syncthreads();  // every piece is read before any is overwritten
    if (merges) {
      const int to = (in_x ? 0 : y_begin) + diag;
      MERGEPATH_UNROLL
      for (int k = 0; k < items; ++k) merged[to + k] = out[k];
      if constexpr (has_values) {
        MERGEPATH_UNROLL
        for (int k = 0; k < items; ++k) merged_sources[to + k] = static_cast<source_type>(source[k]);
      }
    }
  }
  __syncthreads();

  // The pieces' keys are merged: their values take their place, landing while round two runs.
  if constexpr (has_values) {
    auto* values = reinterpret_cast<value_of<ValsIn>*>(shared_bytes + Layout::pieces_offset);
    MERGEPATH_UNROLL
    for (int r = 0; r < ways; ++r)
      loader.copy<threads, tuning.tile_items()>(vals_in + plan.from[r], count[r], values, at[r]);
    loader.finish();
  }

  // Round two: x and y into registers, then through shared memory to global memory.
  const int total = nx + ny;
  const int diag = detail::min_of(static_cast<int>(threadIdx.x) * items, total);
  const int x_split = merge_path(merged, nx, merged + y_begin, ny, diag, comp);
  Key out[items];
  int source[items];
  serial_merge_n<items>(merged, x_split, nx, y_begin + diag - x_split, y_begin + ny, out, source, comp);
  const index_t out_begin = plan.out_begin;
  if constexpr (has_values) {
    auto* values = reinterpret_cast<value_of<ValsIn>*>(shared_bytes + Layout::pieces_offset);
    loader.wait();
    value_of<ValsIn> out_values[items];
    MERGEPATH_UNROLL
    for (int k = 0; k < items; ++k)  // past the tile's end the sources are not the first round's
      if (diag + k < total) out_values[k] = values[merged_sources[source[k]]];
    __syncthreads();
    block::store_blocked_to_shared(out, merged);
    block::store_blocked_to_shared(out_values, values);
    __syncthreads();
    block::store_shared_to_global<threads, items>(merged, total, keys_out + out_begin);
    block::store_shared_to_global<threads, items>(values, total, vals_out + out_begin);
  } else {
    __syncthreads();
    block::store_blocked_to_shared(out, pieces);
    __syncthreads();
    block::store_shared_to_global<threads, items>(pieces, total, keys_out + out_begin);
  }
}

}  // namespace kernel
}  // namespace mergepath
