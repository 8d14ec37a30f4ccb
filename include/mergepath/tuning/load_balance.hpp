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
// 128 x 15 was the best shape or within 2% of it from mean 16 on (H200, 2^26 int32, bench
// --tunings); below 8 items a segment it takes 128 x 31 (71 against 63% of copy at mean 4; 78
// against 81% at mean 16 and 76 against 93% at 300). interval_expand also copies its tiles'
// segment values to shared memory (a third of the tile at most): 128 x 31 was the best shape at
// means 4 and 16 (H200, bench --tunings at fc129c4, % of copy at means 4 / 16 / 300 / 1e4: 128 x
// 31 70 / 81 / 86 / 89, 128 x 23 68 / 79 / 89 / 93, 128 x 19 68 / 77 / 86 / 91, 128 x 15 65 / 71
// / 80 / 85). (The probe's back-to-back calls, which keep the starts and values in L2 from mean 16
// on, favoured 128 x 19; the bench's rotated inputs do not.) transform_lbs with a general f marks
// a bitmap (block::segment_heads): longer tiles were slower there with a heavier f (merge_join at
// mean 1). Both ask L2 for the tile half a tile per SM ahead (H100, 2^26 int32 items, one call:
// mean 4, load_balancing_search 145 -> 135 us, interval_expand 185 -> 168; mean 16 117 -> 115 and
// 142 -> 137; a quarter to two per SM alike).
constexpr load_balance_tuning default_transform_lbs_tuning = {128, 15};
constexpr load_balance_tuning load_balancing_search_tuning = {128, 15, 0.5f};
constexpr load_balance_tuning load_balancing_search_short_tuning = {128, 31, 0.5f};
constexpr long long load_balancing_search_short_mean = 8;  // items a segment below which it applies
constexpr load_balance_tuning interval_expand_tuning = {128, 31, 0.5f};

// segmented_reduce: a tile also holds its items' values in shared memory, so wider values take
// shorter tiles (about 124 bytes of values a thread, an odd count for conflict-free strides).
// H200, 2^26 int32, bench --tunings, % of copy at means 4 / 16 / 300 / 1e4, two machines: 128 x
// 31 62-64 / 65-69 / 69-72 / 76, 128 x 23 59-63 / 62-66 / 69-72 / 78, 128 x 15 52 / 51 / 55 /
// 67; 256 x 23 no faster.
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
// Two shapes (H200, 2^26 int32, us a call, probe load_balance): the longer sub-tiles from mean
// 7000; below, sub-tiles of half the items, so that more of them hold one start or none (mean
// 3000: 74.7 against 81.3; 5000: 73.1 against 73.4; 10^4: 71.3 against 70.9; 10^6: 70.4 against
// 68.9), down to mean 1250, where the merge-path tiles catch up (89.0 against 90.0; 1000: 95
// against 91).
constexpr segmented_reduce_stream_tuning segmented_reduce_stream = {128, 8, 3, 4, 7000};
constexpr segmented_reduce_stream_tuning segmented_reduce_stream_mid = {64, 8, 3, 8, 1250};

// The policies (types with `static constexpr load_balance_tuning tuning`) the entry points use;
// the *_tuned entry points take the caller's own.
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
