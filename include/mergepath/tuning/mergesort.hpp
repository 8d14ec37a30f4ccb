// Tile geometry of the GPU mergesort, per architecture and key/value size: the blocksort's tile
// and the merge passes' tiles.
#pragma once

#include <cstddef>
#include <ostream>
#include <type_traits>

#include "../detail/config.hpp"
#include "arch.hpp"
#include "merge.hpp"

namespace mergepath {

struct blocksort_tuning {
  int block_threads;     // threads per block, a power of two (the block merges runs pairwise)
  int items_per_thread;  // keys each thread sorts in registers (an odd count keeps shared memory free of bank conflicts)
  // Threads per SM the compiler must leave registers for (__launch_bounds__), as in merge_tuning.
  int min_resident_threads = 1024;

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
  MERGEPATH_HD constexpr int min_blocks_per_sm() const {
    return detail::launch_min_blocks(block_threads, min_resident_threads);
  }
};

// The four-way merge passes: each merges groups of four runs, so a sort makes half as many passes
// over memory. A block loads its share of the four runs, merges runs 0 + 1 and 2 + 3 in shared
// memory (each thread items_per_thread outputs of one of them), then merges the two results.
struct four_way_tuning {
  int block_threads = 0;  // 0: no four-way passes (two-way only)
  int items_per_thread = 0;
  int min_resident_threads = 1536;  // as in merge_tuning
  // Sorts of fewer keys make two-way passes only: below ~2^23 keys a four-way pass's split latency
  // outweighs the pass it saves (docs/design/merge-and-mergesort.md#tuning-and-why).
  index_t min_count = index_t{1} << 23;

  // The first round needs a thread of slack: its two merges each end in a partial thread.
  MERGEPATH_HD constexpr int tile_items() const { return (block_threads - 1) * items_per_thread; }
  MERGEPATH_HD constexpr bool enabled() const { return block_threads > 0; }
  MERGEPATH_HD constexpr int min_blocks_per_sm() const {
    return detail::launch_min_blocks(block_threads, min_resident_threads);
  }
};

// Sorts of a few tiles: a cluster of up to max_cluster_blocks blocks (sm_90) each sorts a tile
// in shared memory, then the cluster merges its tiles through distributed shared memory, in one
// launch. Each merge pass after it costs a partition and a merge launch whatever the tile, so runs
// of up to max_cluster_blocks tiles save that many passes.
struct cluster_sort_tuning {
  int block_threads = 0;  // 0: no cluster sort (the blocksort starts every sort)
  int items_per_thread = 0;
  int max_cluster_blocks = 8;  // the portable cluster size
  index_t max_count = 0;       // sorts of more keys start with the blocksort

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
  MERGEPATH_HD constexpr bool enabled() const { return block_threads > 0 && max_count > 0; }
};

struct mergesort_tuning {
  // The first pass: every block sorts one tile (sort_network per thread, then rounds of merges in
  // shared memory). A larger tile leaves fewer global merge passes, each of which moves all the data.
  blocksort_tuning blocksort;
  // The merge passes, which double the sorted runs until one is left: a partition kernel, then a
  // merge of one tile per block, as merge's tiled schedule does (stages 1; the chunked and
  // streamed fields are not used).
  merge_tuning merge;
  // Passes whose runs hold at least this many keys narrow their partition searches with samples
  // of all the keys (merge.partition_sample_bytes of them). Shorter runs have short searches that
  // mostly hit L2, and there the sample kernel's launch cost more than it saved
  // (docs/design/merge-and-mergesort.md#what-was-tried).
  index_t min_sampled_run = index_t{1} << 20;
  // While more than two runs are left, passes merge four runs at a time (when enabled); the last
  // pass, where two are left, is two-way.
  four_way_tuning four_way = {};
  // Sorts of at most cluster_sort.max_count keys start with the cluster sort (when enabled).
  cluster_sort_tuning cluster_sort = {};
  // Two-way passes of at most this many tiles per resident merge block skip the partition
  // kernel: each block finds its own splits with two warp-wide searches. Small sorts' runs sit in
  // L2, where those searches cost less than the kernel's launch and latency floor; at 2^26 keys
  // they sat on every block's critical path (docs/design/merge-and-mergesort.md#what-was-tried).
  // 0: never.
  int self_partition_waves = 1;
  // Sorts of at most small_cluster_sort.max_count keys take the cluster sort at this tile instead
  // of cluster_sort's (when enabled): more, smaller blocks for small sorts.
  cluster_sort_tuning small_cluster_sort = {};
};

inline std::ostream& operator<<(std::ostream& os, const mergesort_tuning& t) {
  return os << "{blocksort {block_threads " << t.blocksort.block_threads << ", items_per_thread "
            << t.blocksort.items_per_thread << ", min_resident_threads " << t.blocksort.min_resident_threads
            << "}, merge " << t.merge << ", min_sampled_run " << t.min_sampled_run << ", four_way {block_threads "
            << t.four_way.block_threads << ", items_per_thread " << t.four_way.items_per_thread
            << ", min_resident_threads " << t.four_way.min_resident_threads << ", min_count " << t.four_way.min_count
            << "}, cluster_sort {block_threads " << t.cluster_sort.block_threads << ", items_per_thread "
            << t.cluster_sort.items_per_thread << ", max_cluster_blocks " << t.cluster_sort.max_cluster_blocks
            << ", max_count " << t.cluster_sort.max_count << "}, self_partition_waves " << t.self_partition_waves
            << ", small_cluster_sort {block_threads " << t.small_cluster_sort.block_threads << ", items_per_thread "
            << t.small_cluster_sort.items_per_thread << ", max_cluster_blocks "
            << t.small_cluster_sort.max_cluster_blocks << ", max_count " << t.small_cluster_sort.max_count << "}}";
}

// Defaults, measured on sm_90 (docs/design/merge-and-mergesort.md#tuning-and-why): the merge
// passes take merge's tiled shapes. The blocksort is bound by shared memory (the serial merges'
// bank conflicts), and a shared-memory round costs about half a global pass, so a larger tile
// pays while two blocks still fit an SM without spills: 512 x 33 for int32 keys, 512 x 19 for
// int32 pairs, 512 x 23 for int64 keys; at one block an SM (1024 x 31) it lost.
// integer_keys: the keys are integers, which the cluster sort's warps may sort without regard to
// stability under less<> or greater<> (block::warp_sorts_runs).
constexpr mergesort_tuning mergesort_tuning_for(int arch, std::size_t key_bytes, std::size_t value_bytes,
                                                bool integer_keys = false) {
  arch = tuning_family(arch);
  merge_tuning merge = merge_tuning_for(arch, key_bytes, value_bytes);
  merge.chunked_max_tiles = 0;  // the passes use the tiled schedule only
  merge.small_max_total = 0;
  // The passes were measured with 256 x 23 int32 tiles, merge's shape before its partition pass
  // took samples and its tiles grew to 384 x 27.
  if (value_bytes == 0 && key_bytes <= 4) merge.block_threads = 256, merge.items_per_thread = 23;
  // Four-way passes halve the passes over memory; int64 keys take 1024 threads, since at 1536 they
  // spill (docs/design/merge-and-mergesort.md#tuning-and-why).
  mergesort_tuning t{{128, 7, 1024}, merge};
  std::size_t pair_bytes = key_bytes + value_bytes;
  if (value_bytes == 0 && key_bytes <= 4) t.blocksort = {512, 33, 1024}, t.four_way = {128, 23, 1536};
  else if (value_bytes == 0 && key_bytes <= 8) t.blocksort = {512, 23, 1024}, t.four_way = {128, 23, 1024};
  else if (value_bytes != 0 && pair_bytes <= 8) t.blocksort = {512, 19, 1024}, t.four_way = {128, 15, 1024};
  else if (value_bytes != 0 && pair_bytes <= 16) t.blocksort = {256, 11, 1024};
  else if (value_bytes != 0) t.blocksort = {128, 5, 1024};
  // Other families (reasoned, not measured: no such GPU here) keep sm_90's shapes where two
  // blocksort tiles fit an SM's shared memory, and halve the tile where they do not, so that two
  // blocks share an SM as on sm_90: sm_75 (64 KB: 512 x 33 int32 keys do not even fit once),
  // sm_86/89/120 (100 KB an SM), sm_80 (164 KB: 8-byte keys). The passes' tiles fit everywhere.
  const bool small_keys = value_bytes == 0 && key_bytes <= 4;
  const bool wide_keys = value_bytes == 0 && key_bytes > 4 && key_bytes <= 8;
  const bool small_pairs = value_bytes != 0 && pair_bytes <= 8;
  if (arch == family_sm75) {
    if (small_keys) t.blocksort = {512, 15, 1024};
    if (wide_keys || small_pairs) t.blocksort = {256, 15, 1024};
  } else if (arch == family_sm86) {
    if (small_keys) t.blocksort = {512, 23, 1024};
    if (wide_keys || small_pairs) t.blocksort = {512, 11, 1024};
  } else if (arch == family_sm80) {
    if (wide_keys) t.blocksort = {512, 19, 1024};
  }
  // The cluster sort: about 36 KB of keys and values a tile (its staging doubles that), tiles of
  // 512 x 9 for 8-byte elements, which sorted 2^12 int32 keys in one block fastest. From 2^20 keys
  // its runs of 8 small tiles lose to the blocksort's larger tiles
  // (docs/design/merge-and-mergesort.md#tuning-and-why).
  const index_t cluster_max_count = index_t{1} << 19;
  // 4-byte integer keys alone: 512 x 8, whose warps sort their first five doublings in registers
  // where equal keys are identical (block::warp_bitonic_sort). Without the warp sort 512 x 8 loses
  // to 512 x 9, so other keys keep 512 x 9 (an integer key under another comparator takes 512 x 8
  // without it): docs/design/merge-and-mergesort.md#what-was-tried.
  const bool warp_sorted = integer_keys && value_bytes == 0 && key_bytes <= 4;
  if (pair_bytes <= 8)
    t.cluster_sort = {512, warp_sorted ? 8 : 9, 8, cluster_max_count};
  else if (pair_bytes <= 16) t.cluster_sort = {256, 9, 8, cluster_max_count};
  else if (pair_bytes <= 32) t.cluster_sort = {128, 9, 8, cluster_max_count};
  // Pairs of up to 8 bytes sort faster in clusters of 256 x 9 tiles up to 2^17: a 2^12 sort on
  // two SMs, not one (docs/design/merge-and-mergesort.md#tuning-and-why).
  if (value_bytes != 0 && pair_bytes <= 8) t.small_cluster_sort = {256, 9, 8, index_t{1} << 17};
  return t;
}

// The family whose tuning `family` sorts with: itself where its blocksort differs from sm_90's
// (the only field that differs between families), else sm_90, so that families with one tuning
// share their kernels.
constexpr int mergesort_tuning_family(int family, std::size_t key_bytes, std::size_t value_bytes,
                                      bool integer_keys = false) {
  const blocksort_tuning mine = mergesort_tuning_for(family, key_bytes, value_bytes, integer_keys).blocksort;
  const blocksort_tuning hopper = mergesort_tuning_for(family_sm90, key_bytes, value_bytes, integer_keys).blocksort;
  const bool same = mine.block_threads == hopper.block_threads && mine.items_per_thread == hopper.items_per_thread &&
                    mine.min_resident_threads == hopper.min_resident_threads;
  return same ? family_sm90 : tuning_family(family);
}

// A policy names a tuning at compile time; pass your own as mergesort<Policy>(ctx, ...) to override it.
// Family: a tuning_family (sm_90's by default; the front doors take the running code's).
template <class Key, class Value = void, int Family = family_sm90>
struct default_mergesort_policy {
  static constexpr mergesort_tuning tuning = mergesort_tuning_for(Family, sizeof(Key), sizeof(Value));
};
template <class Key, int Family>
struct default_mergesort_policy<Key, void, Family> {
  static constexpr mergesort_tuning tuning =
      mergesort_tuning_for(Family, sizeof(Key), 0, std::is_integral_v<Key>);
};

// The default policy for code of `Family`, one type for all families that share a tuning.
template <class Key, class Value, int Family>
using mergesort_policy_for =
    default_mergesort_policy<Key, Value,
                             mergesort_tuning_family(Family, sizeof(Key), detail::size_or_zero<Value>,
                                                     std::is_void_v<Value> && std::is_integral_v<Key>)>;

}  // namespace mergepath
