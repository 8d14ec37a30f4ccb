// Tile geometry of the GPU load-balancing calls: a tile is tile_items() steps of the path through
// (segment starts, items), walked items_per_thread steps by each thread.
#pragma once

#include <cstddef>
#include <ostream>

#include "../detail/config.hpp"
#include "arch.hpp"

namespace mergepath {

struct load_balance_tuning {
  int block_threads;     // threads per block
  int items_per_thread;  // steps of the path each thread walks (starts plus items)
  // load_balancing_search and interval_expand: each tile asks L2 for the starts (and values) of
  // the tile this many tiles per SM ahead of it (0: none).
  float prefetch_tiles_per_sm = 0;

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline std::ostream& operator<<(std::ostream& os, const load_balance_tuning& t) {
  return os << "{block_threads " << t.block_threads << ", items_per_thread " << t.items_per_thread
            << ", prefetch_tiles_per_sm " << t.prefetch_tiles_per_sm << "}";
}

// transform_lbs and everything built on it. A tile of load_balancing_search or interval_expand
// counts its starts at each item (block::tile_segment_map, 2 bytes an item). load_balancing_search:
// 128 x 15 was at or near the best shape from mean 16 on; below 8 items a segment the longer
// 128 x 31 wins. interval_expand also copies its tiles' segment values to shared memory (a third
// of the tile at most): 128 x 31 was the best shape at means 4 and 16 (with inputs rotated
// through L2; back-to-back calls that keep them in L2 favoured 128 x 19). transform_lbs with a
// general f marks a bitmap (block::segment_heads): longer tiles were slower there with a heavier f
// (merge_join at mean 1). Both ask L2 for the tile half a tile per SM ahead (a quarter to two per
// SM alike). See docs/design/load-balance.md#tuning.
constexpr load_balance_tuning default_transform_lbs_tuning = {128, 15};
constexpr load_balance_tuning load_balancing_search_tuning = {128, 15, 0.5f};
constexpr load_balance_tuning load_balancing_search_short_tuning = {128, 31, 0.5f};
constexpr long long load_balancing_search_short_mean = 8;  // items a segment below which it applies
constexpr load_balance_tuning interval_expand_tuning = {128, 31, 0.5f};

// segmented_reduce: a tile also holds its items' values in shared memory, so wider values take
// shorter tiles (about 124 bytes of values a thread, an odd count for conflict-free strides;
// docs/design/load-balance.md#tuning).
constexpr load_balance_tuning segmented_reduce_tuning_for(std::size_t value_bytes) {
  int items = static_cast<int>(124 / (value_bytes == 0 ? 1 : value_bytes));
  items = items < 1 ? 1 : (items > 31 ? 31 : items);
  return {128, items % 2 == 0 ? items - 1 : items};
}

// segmented_reduce over long segments (count / num_segments >= min_mean) of a plain, 16-byte
// aligned array of 4-, 8- or 16-byte values: no merge partition; a block per SM slot streams a
// fixed range of the items in sub-tiles of block_threads * vectors_per_thread 16-byte pieces,
// `stages` of them in a ring in shared memory (the next ones' copies in flight while one is
// reduced), and finds its segments' starts as it goes.
struct segmented_reduce_stream_tuning {
  int block_threads;       // threads per block
  int vectors_per_thread;  // 16-byte pieces a thread copies per sub-tile
  int stages;              // sub-tiles in the ring: one reduced, the others in flight
  int min_blocks_per_sm;   // resident blocks the registers must allow
  long long min_mean;      // items a segment from which segmented_reduce takes this path
  // Sub-tiles with a single start end the open segment by a reduce of the threads' folds, not by
  // the walk and the scan of open runs (where the op is plus, minimum or maximum with an exact
  // identity on T).
  bool one_start_reduce = true;

  template <class T>
  MERGEPATH_HD constexpr int items_per_thread() const {
    return vectors_per_thread * static_cast<int>(16 / sizeof(T));
  }
  MERGEPATH_HD constexpr int ring_bytes() const { return stages * block_threads * vectors_per_thread * 16; }
};
// Two shapes: the longer sub-tiles from mean 7000; below, sub-tiles of half the items, so that
// more of them hold one start or none, down to mean 1250, where the merge-path tiles catch up
// (docs/design/load-balance.md#tuning).
constexpr segmented_reduce_stream_tuning segmented_reduce_stream = {128, 8, 3, 4, 7000};
constexpr segmented_reduce_stream_tuning segmented_reduce_stream_mid = {64, 8, 3, 8, 1250};

// The policies (types with `static constexpr load_balance_tuning tuning`) the entry points use;
// transform_lbs<Policy> and transform_segmented_reduce<Policy> take the caller's own.
struct default_transform_lbs_policy {
  static constexpr load_balance_tuning tuning = default_transform_lbs_tuning;
};
struct load_balancing_search_policy {
  static constexpr load_balance_tuning tuning = load_balancing_search_tuning;
};
struct load_balancing_search_short_policy {
  static constexpr load_balance_tuning tuning = load_balancing_search_short_tuning;
};
struct interval_expand_policy {
  static constexpr load_balance_tuning tuning = interval_expand_tuning;
};
struct segmented_reduce_stream_policy {
  static constexpr segmented_reduce_stream_tuning tuning = segmented_reduce_stream;
};
struct segmented_reduce_stream_mid_policy {
  static constexpr segmented_reduce_stream_tuning tuning = segmented_reduce_stream_mid;
};
template <class T>
struct default_segmented_reduce_policy {
  static constexpr load_balance_tuning tuning = segmented_reduce_tuning_for(sizeof(T));
};

}  // namespace mergepath
