// How the searches of binary_search.hpp run: the GPU kernels' shape, and the choice between one
// search per needle and sorting the needles first.
#pragma once

#include <cstddef>

#include "../detail/config.hpp"

namespace mergepath {

// A batch of unsorted needles: one binary search each, or sort them (with their positions), walk
// them and the haystack once with sorted_search, and scatter the bounds back.
enum class search_strategy { automatic, per_needle, sort_then_search };

// Measured on an H200 at 2^26 random int32 needles into 2^26 keys (bench/NOTES.md).
struct binary_search_tuning {
  int block_threads = 256;          // binary_search and eytzinger_layout
  int layout_block_items = 8192;    // keys each block of eytzinger_layout scatters
  // eytzinger_search keeps the tree's top levels (its first nodes, contiguous) in shared memory,
  // up to this many bytes, in blocks of search_block_threads: every search passes through them.
  // 32 KiB (13 levels of int32) in blocks of 512 beat 16 KiB in blocks of 256 by 5%.
  int search_block_threads = 512;
  int cached_tree_bytes = 32 * 1024;
};

constexpr binary_search_tuning binary_search_tuning_for(int /*arch*/, std::size_t /*key_bytes*/) { return {}; }

// The automatic strategy. A per-needle search costs log2(haystack) dependent loads per needle,
// cheap while the haystack's upper levels sit in cache; the sorting path costs a sort of the
// needles plus one walk of the whole haystack. Measured (bench/results/binary-search-h200-*):
//  - H200: into 2^26 keys the sorting path wins from 2^22 random needles on (1.41x), loses
//    below (1.42x slower at 2^20); into 2^20 keys (4 MiB, in L2) one by one always wins. So: a
//    haystack past the L2 (2^23 keys and up) and needles at least 1/16 of it.
//  - CPU, 16 threads: into 2^22 keys the sorting path won at every count from 2^12 needles
//    (1.15x-3.6x): the walk of the haystack streams, the searches miss cache. So: when the
//    searches' loads (needles x log2 haystack) are at least 1/256 of the haystack.
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
