// Tile geometry of the GPU merge, per architecture and key/value size.
#pragma once

#include <cstddef>
#include <ostream>

#include "../detail/config.hpp"
#include "arch.hpp"

namespace mergepath {

// Shared memory each block of the partition pass fills with samples of both inputs, so that its
// searches read only a window of 2 x (the sample stride) elements of each input from global
// memory. The pass is bound by its dependent global reads' latency; 32 KB of int32 samples at
// 2^26 + 2^26 keys cut them from 26 to 15 per search
// (docs/design/merge-and-mergesort.md#design-and-invariants).
constexpr int default_partition_sample_bytes = 32 * 1024;

struct merge_tuning {
  int block_threads;     // threads per block
  int items_per_thread;  // outputs each thread merges in registers
  // Tiled schedule (a partition pass, then one tile per block): 1 stage loads then merges; 2
  // stages make the grid persistent, each block prefetching its next tile while merging one.
  int stages = 1;
  // Streamed schedule (keys-only merges): a persistent grid in which each block walks one
  // contiguous chunk through shared-memory rings, with no partition pass (kernel/merge_stream.cuh).
  bool streamed = false;
  // Threads per SM the compiler must leave registers for (__launch_bounds__): more resident
  // threads hide more load latency, until registers spill. 1024 means at most 64 registers.
  int min_resident_threads = 1024;
  // Points each step of the partition pass's global merge_path tests (1: binary search). More
  // probes mean fewer dependent steps but more loads; 3 or 7 measured slower than 1
  // (docs/design/merge-and-mergesort.md#what-was-tried).
  int partition_probes = 1;
  // Chunked schedule (no partition pass), chosen when each resident block would merge at most
  // this many tiles (0: never): a persistent grid in which each block walks one contiguous chunk
  // of tiles, finding each next split in a one-tile window (merge_chunk_kernel). It skips the
  // partition pass's latency floor, which dominates small merges, but its
  // window searches cost more than the pass once chunks are long.
  int chunked_max_tiles = 0;
  // Bytes of samples the partition pass's blocks search first (0: none; at most 48 KB).
  int partition_sample_bytes = default_partition_sample_bytes;
  // Tiled schedule: each tile asks L2 for the runs of the tile this many tiles per SM ahead of it
  // (block::prefetch_to_l2), so that its block's loads find L2 rather than DRAM (0: none).
  float prefetch_tiles_per_sm = 0;
  // Tiled schedule: an output larger than this many times L2 is stored evict-first, so that it
  // does not push the tiles fetched ahead out of L2 (0: always; negative: never), on GPUs whose
  // L2 holds at most evict_first_stores_max_l2_mib MiB: in a larger L2 the tiles ahead outlive the
  // output anyway and the write-backs cost (docs/design/merge-and-mergesort.md#what-was-tried).
  float evict_first_stores_past_l2 = 1;
  int evict_first_stores_max_l2_mib = 56;
  // Merges of at most small_max_total outputs take the chunked schedule in tiles of
  // small_block_threads x small_items_per_thread (0: never): smaller tiles put a small merge on
  // more SMs.
  int small_block_threads = 0;
  int small_items_per_thread = 0;
  index_t small_max_total = 0;

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
  MERGEPATH_HD constexpr int min_blocks_per_sm() const {
    return detail::launch_min_blocks(block_threads, min_resident_threads);
  }
};

inline std::ostream& operator<<(std::ostream& os, const merge_tuning& t) {
  os << "{block_threads " << t.block_threads << ", items_per_thread " << t.items_per_thread;
  if (t.streamed)
    os << ", streamed";
  else
    os << ", stages " << t.stages;
  os << ", min_resident_threads " << t.min_resident_threads;
  if (!t.streamed)
    os << ", partition_probes " << t.partition_probes << ", chunked_max_tiles " << t.chunked_max_tiles
       << ", partition_sample_bytes " << t.partition_sample_bytes << ", prefetch_tiles_per_sm "
       << t.prefetch_tiles_per_sm << ", evict_first_stores_past_l2 " << t.evict_first_stores_past_l2
       << ", evict_first_stores_max_l2_mib " << t.evict_first_stores_max_l2_mib;
  if (!t.streamed && t.small_max_total > 0)
    os << ", small_block_threads " << t.small_block_threads << ", small_items_per_thread " << t.small_items_per_thread
       << ", small_max_total " << t.small_max_total;
  return os << "}";
}

// Defaults, measured on sm_90 (docs/design/merge-and-mergesort.md#tuning-and-why): the tiled
// schedule with one stage. What mattered most was registers: bounding them for 1536 resident
// threads (keys) or 1024 (pairs, which spill below 64). Then the partition pass: with samples,
// int32 keys gain from 384 x 27 tiles (half the splits of 256 x 23, the tile kernel as fast). Two
// stages and the streamed schedule measured slower. Small merges (up to 2 tiles per resident
// block) take the chunked schedule, which skips the partition pass's latency floor. Older
// architectures use the same shapes until someone measures them. Odd items_per_thread keeps the
// register -> shared transpose free of bank conflicts. int32 keys ask L2 for the tile a quarter
// tile per SM ahead (a tile per SM ahead was slower). Up to 2^20 + 2^20 int32 keys the chunks take
// 128 x 23 tiles, which put a small merge on more SMs (384 x 27 put 2^14 + 2^14 keys on 4 blocks).
constexpr merge_tuning merge_tuning_for(int arch, std::size_t key_bytes, std::size_t value_bytes) {
  (void)arch;
  constexpr int chunked = 2;  // tiles per block: 2^22 + 2^22 int32 keys and below
  if (value_bytes == 0) {
    if (key_bytes <= 4) {
      merge_tuning t{384, 27, 1, false, 1536, 1, chunked};
      t.prefetch_tiles_per_sm = 0.25f;
      t.small_block_threads = 128;
      t.small_items_per_thread = 23;
      t.small_max_total = index_t{1} << 21;
      return t;
    }
    if (key_bytes <= 8) return {256, 13, 1, false, 1536, 1, chunked};
    return {128, 7, 1, false, 1024, 1, chunked};
  }
  std::size_t pair_bytes = key_bytes + value_bytes;
  if (pair_bytes <= 8) return {256, 19, 1, false, 1024, 1, chunked};
  if (pair_bytes <= 16) return {256, 11, 1, false, 1024, 1, chunked};
  return {128, 5, 1, false, 1024, 1, chunked};
}

// A policy names a tuning at compile time; pass your own as merge<Policy>(ctx, ...) to override it.
template <class Key, class Value = void>
struct default_merge_policy {
  static constexpr merge_tuning tuning = merge_tuning_for(90, sizeof(Key), detail::size_or_zero<Value>);
};

}  // namespace mergepath
