// How the searches of binary_search.hpp run: the GPU kernels' shape, and the choice between one
// search per needle and sorting the needles first.
#pragma once

#include <cstddef>

#include "../detail/config.hpp"

namespace mergepath {

// A batch of unsorted needles: one binary search each, or sort them (with their positions), walk
// them and the haystack once with sorted_search, and scatter the bounds back.
enum class search_strategy { automatic, per_needle, sort_then_search };

constexpr const char* to_string(search_strategy s) {
  switch (s) {
    case search_strategy::automatic:
      return "automatic";
    case search_strategy::per_needle:
      return "per_needle";
    case search_strategy::sort_then_search:
      return "sort_then_search";
  }
  return "?";
}

// Measured on sm_90 at 2^26 random int32 needles into 2^26 keys (docs/design/search.md#3-tuning).
struct binary_search_tuning {
  int block_threads = 256;  // binary_search (one needle per thread) and eytzinger_layout
  // eytzinger_layout stages this many bytes of keys per block in shared memory (8192 int32 keys;
  // half of that measured slower).
  int layout_block_bytes = 32 * 1024;
  // eytzinger_search keeps the tree's top levels (its first nodes, contiguous) in shared memory,
  // up to this many bytes, in blocks of search_block_threads: every search passes through them.
  // With one needle per thread every block copies them, so fewer pay: 10 levels (4 KiB) in blocks
  // of 512 measured best.
  int search_block_threads = 512;
  int cached_tree_bytes = 4 * 1024;
  // binary_search into a haystack larger than L2 reads its steps from this one on evict-first
  // (detail/cache_hint.cuh). 16 measured best, earlier or later: past 16 the evict-first lines
  // crowd out the steps above.
  int binary_evict_first_step = 16;

  MERGEPATH_HD constexpr int layout_items(std::size_t key_bytes) const {
    return key_bytes >= static_cast<std::size_t>(layout_block_bytes) ? 1
                                                                     : layout_block_bytes / static_cast<int>(key_bytes);
  }
};

// eytzinger_search reads the tree evict-first from this level on: the levels above it fill at
// most half of L2 (the other half passes the needles, bounds and deep nodes), which measured best
// (docs/design/search.md#3-tuning).
constexpr int first_uncached_tree_level(std::size_t l2_bytes, std::size_t key_bytes) {
  int level = 0;
  while (level < 62 && (std::size_t{1} << (level + 1)) * key_bytes <= l2_bytes) ++level;
  return level;
}

constexpr binary_search_tuning binary_search_tuning_for(int /*arch*/, std::size_t /*key_bytes*/) { return {}; }

// The automatic strategy. A per-needle search costs log2(haystack) dependent loads per needle,
// cheap while the haystack's upper levels sit in cache; the sorting path costs a sort of the
// needles plus one walk of the whole haystack. Measured (docs/design/search.md#3-tuning):
//  - GPU: into a haystack beyond L2 the sorting path wins from many random needles on; into one
//    in L2 one by one always wins. So: a haystack past the L2 (2^23 keys and up) and needles at
//    least 1/16 of it.
//  - CPU, 16 threads: into 2^22 keys the sorting path won at every count from 2^12 needles: the
//    walk of the haystack streams, the searches miss cache. So: when the searches' loads
//    (needles x log2 haystack) are at least 1/256 of the haystack.
constexpr search_strategy search_strategy_for(bool gpu, index_t needle_count, index_t haystack_count) {
  if (gpu)
    return haystack_count >= (index_t{1} << 23) && needle_count * 16 >= haystack_count
               ? search_strategy::sort_then_search
               : search_strategy::per_needle;
  index_t levels = 1;
  while ((index_t{1} << levels) < haystack_count) ++levels;
  return needle_count >= 1024 && needle_count * levels * 256 >= haystack_count ? search_strategy::sort_then_search
                                                                               : search_strategy::per_needle;
}

}  // namespace mergepath
