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

// The automatic strategy. A per-needle search costs log2(haystack) dependent random loads per
// needle; the sorting path costs a sort of the needles plus one pass over both inputs, so it wins
// once needles are many and not too few against the haystack. Crossovers measured on an H200
// and on 2 CPU cores (bench/NOTES.md, "Searching unsorted needles").
constexpr search_strategy search_strategy_for(bool gpu, index_t needle_count, index_t haystack_count) {
  if (gpu) return needle_count >= (index_t{1} << 20) && needle_count * 8 >= haystack_count
                      ? search_strategy::sort_then_search
                      : search_strategy::per_needle;
  return needle_count >= (index_t{1} << 18) && needle_count * 4 >= haystack_count ? search_strategy::sort_then_search
                                                                                  : search_strategy::per_needle;
}

}  // namespace mergepath
