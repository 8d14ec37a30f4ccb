// Tile geometry of the GPU sorted search, per key size.
#pragma once

#include <cstddef>

#include "../detail/config.hpp"
#include "merge.hpp"
#include "arch.hpp"

namespace mergepath {

struct sorted_search_tuning {
  int block_threads;     // threads per block (at least 64: two warps search for splits)
  int items_per_thread;  // Merge Path steps each thread walks in registers (at most 32)
  // Threads per SM the compiler must leave registers for (__launch_bounds__), as in merge_tuning.
  int min_resident_threads = 1024;
  // Inputs of at most this many tiles per resident block skip the partition pass: each block
  // finds its own splits with two warp-wide searches, which costs less than the pass's latency
  // floor until the searches' random reads add up (the merge measured the same trade:
  // tuning/merge.hpp).
  int self_partition_waves = 2;
  // Bytes of samples the partition pass's blocks search first, as in merge_tuning.
  int partition_sample_bytes = default_partition_sample_bytes;
  // Lower bounds (or upper) of a into a b at least this many times longer skip the Merge Path:
  // each needle is searched alone, through samples of b, then between two of them
  // (kernel::needle_search_kernel), so that most of b is never read (0: never); so are those from
  // b_tile_ratio where b is too short for b's tiles (below). At 1:32 b's tiles lost to it on
  // needles bunched toward b's start (docs/design/search.md#3-tuning).
  int needle_search_ratio = 32;
  // The needle search goes through samples of b first only while b is less than this many times
  // longer than a (0: never); beyond, each search starts from all of b. The samples pack b's
  // upper levels into 32 KB of L1 but cost a kernel: below 1:256 they are what keeps evenly
  // spread needles ahead of Thrust, from 1:256 they pay for none. And only where b's bytes are at
  // least needle_sample_min_l2_percent of the L2 size: from L2 the sample pass is half the call
  // (docs/design/search.md#3-tuning).
  index_t needle_sample_max_ratio = 256;
  int needle_sample_min_l2_percent = 100;
  // Without samples and beyond L2 (the same rule), the steps whose window spans more than one
  // 128-byte line and at most this many bytes read their key evict-first in L1 (0: never): each
  // of those lines serves one needle once, and kept in L1 they pushed out the lines that warps
  // share and the last line, which the search's last steps read again (the window's loads hit L2
  // where they should hit L1). With samples (below 1:256) sparing lost
  // (docs/design/search.md#3-tuning).
  int needle_l1_spare_bytes = 8192;
  // Plain bounds of a into a b at least this many times longer (and shorter than
  // needle_search_ratio allows) read b in fixed tiles instead of along the Merge Path: no
  // partition pass; a small pass finds every tile's needles first, and tiles without needles
  // read nothing (kernel::b_tile_search_kernel); at 1:8 they are level with the Merge Path
  // (0: never). Only where b's bytes are at least b_tile_min_l2_percent of the L2 size; a shorter b
  // takes the needle search. Skewed needles (range x u^4) pile into b's first tiles, whose blocks
  // then work long after the rest; from about four times L2 the tiles hold up
  // (docs/design/search.md#3-tuning).
  int b_tile_ratio = 12;
  int b_tile_min_l2_percent = 400;
  int b_tile_threads = 256;
  int b_tile_bytes = 32768;  // b's keys of a tile, in shared memory (7 blocks an SM on sm_90)
  // Merge Path searches of at least large_min_total keys (a's and b's) take tiles of
  // large_items_per_thread steps a thread instead (0: never): where the tiles make dozens of
  // waves, the last wave's ragged end matters little and longer tiles measured faster.
  int large_items_per_thread = 0;
  index_t large_min_total = 0;

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
  MERGEPATH_HD constexpr int min_blocks_per_sm() const {
    return detail::launch_min_blocks(block_threads, min_resident_threads);
  }
};

// The CPU's plain bounds of a into a b at least host_gallop_ratio(b's bytes) times longer gallop
// from needle to needle (host::gallop_search) instead of walking the Merge Path through all of b,
// whose reads stream. Where b lies beyond the last-level cache the two cross between 1:256 and
// 1:512; where b fits it, between 1:16 and 1:64 (docs/design/search.md#3-tuning). A needle's
// galloping costs about as much as host_gallop_work_per_needle steps of the walk (how the needles
// split over threads).
constexpr index_t host_gallop_ratio_beyond_cache = 512;
constexpr index_t host_gallop_ratio_in_cache = 64;
constexpr index_t host_gallop_ratio(std::size_t b_bytes, std::size_t cache_bytes) {
  return cache_bytes > 0 && b_bytes <= cache_bytes ? host_gallop_ratio_in_cache : host_gallop_ratio_beyond_cache;
}
constexpr index_t host_gallop_work_per_needle = 32;

// The merge's keys shapes (tuning/merge.hpp) to start from: the search reads the same tiles and
// writes at most as much. 4-byte keys, measured on sm_90 (docs/design/search.md#3-tuning): the
// walk keeps no bounds in registers, so 32 registers serve and 2048 resident threads (8 blocks
// of 256) overlap one block's loads with another's walk best. Fewer, larger blocks lost (384 x
// 27, 512 x 23); smaller ones won in the tile kernel but doubled the partition pass's splits.
// Searches that report matches spend more of each step on the match tests, so longer threads
// (31 steps), which spread each thread's fixed costs and the pass's splits over more steps,
// won there.
//
// Plain bounds take 19 steps a thread, not the merge's 23: where the tiles make about one wave
// (2^22 keys), more, shorter tiles keep more warps on each SM; 256 x 17 lost. With dozens of
// waves, though, the merge's 23 steps win where b is half the keys, so from 2^25 keys in all the
// tiles are 256 x 23.
//
// Results wider than the keys (int64 bounds of int32 keys with match flags: plain bounds are staged
// as 32-bit ones, kernel::search_staging) take twice the keys' shared memory, 4 blocks of 256 x 23
// an SM, so they drop the 32-register cap of 2048 resident threads, which buys no residency there
// and measured slower (docs/design/search.md#3-tuning).
constexpr sorted_search_tuning sorted_search_tuning_for(int arch, std::size_t key_bytes, bool reports_matches = false,
                                                        std::size_t result_bytes = 0) {
  (void)arch;
  if (key_bytes <= 4 && result_bytes > key_bytes) return {256, 23, 1024, 2};
  if (key_bytes <= 4) {
    if (reports_matches) return {256, 31, 2048, 2};
    sorted_search_tuning t{256, 19, 2048, 2};
    t.large_items_per_thread = 23;
    t.large_min_total = index_t{1} << 25;
    return t;
  }
  if (key_bytes <= 8) return {256, 13, 1536, 2};
  return {128, 7, 1024, 2};
}

// ReportsMatches: for searches where a side asks for match flags or counts. ResultBytes: the
// widest result a side writes (0: as wide as the keys).
template <class Key, bool ReportsMatches = false, std::size_t ResultBytes = 0>
struct default_sorted_search_policy {
  static constexpr sorted_search_tuning tuning =
      sorted_search_tuning_for(90, sizeof(Key), ReportsMatches, ResultBytes);
};

}  // namespace mergepath
