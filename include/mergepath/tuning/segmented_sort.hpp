// Tile geometry of the GPU segmented sort and locality sort, per architecture and key/value size.
#pragma once

#include <cstddef>
#include <ostream>

#include "mergesort.hpp"

namespace mergepath {

struct segmented_sort_tuning {
  // The segmented blocksort: every block sorts one tile's segments in shared memory.
  blocksort_tuning blocksort;
  // The global merge passes. Their tiles are also the unit of early exit (a tile merges, copies
  // or does nothing), so every pass must cut the array at the same places: the blocksort tile is
  // a whole number of merge tiles (checked where the sort is instantiated).
  merge_tuning merge;
  // Blocks per SM of the persistent grid that serves each pass's work queues.
  int queue_blocks_per_sm = 8;
  // locality_sort's blocksort: odd-even rounds of neighbouring runs, at most this many, before
  // it falls back to the tree rounds (block::sort_near_sorted_tile_in_shared). Keys a few runs
  // from their places take about as many rounds; a tile with runs this many + 1 apart out of
  // order takes the tree at once. 0: the tree rounds only.
  int locality_rounds = 6;

  constexpr bool tiles_nest() const { return blocksort.tile_items() % merge.tile_items() == 0; }
};

inline std::ostream& operator<<(std::ostream& os, const segmented_sort_tuning& t) {
  return os << "{blocksort {block_threads " << t.blocksort.block_threads << ", items_per_thread "
            << t.blocksort.items_per_thread << "}, merge " << t.merge << ", queue_blocks_per_sm "
            << t.queue_blocks_per_sm << ", locality_rounds " << t.locality_rounds << "}";
}

// Defaults, measured on sm_90 at 2^26 int32 keys (docs/design/segmented-sort.md#tuning). The
// merge tiles are half the merge's (128 threads): a pass past the first moves only the tiles near
// each interface and those it merged the pass before, so smaller tiles move less. The blocksort
// has the same items per thread and holds 4 merge tiles for keys, 2 for pairs (a larger block
// would leave too few registers for keys, values and sources at 2 blocks per SM).
constexpr segmented_sort_tuning segmented_sort_tuning_for(int arch, std::size_t key_bytes, std::size_t value_bytes) {
  merge_tuning merge = merge_tuning_for(arch, key_bytes, value_bytes);
  merge.block_threads = 128;
  if (value_bytes == 0 && key_bytes <= 4) merge.items_per_thread = 23;  // as measured, before merge's grew to 27
  merge.chunked_max_tiles = 0;
  merge.stages = 1;
  blocksort_tuning blocksort{(value_bytes == 0 ? 4 : 2) * merge.block_threads, merge.items_per_thread, 1024};
  return {blocksort, merge, 8, 6};
}

// A policy names a tuning at compile time; pass your own as segmented_sort<Policy>(ctx, ...) (and
// the other calls of segmented_sort.hpp) to override it.
template <class Key, class Value = void>
struct default_segmented_sort_policy {
  static constexpr segmented_sort_tuning tuning =
      segmented_sort_tuning_for(90, sizeof(Key), detail::size_or_zero<Value>);
};

}  // namespace mergepath
