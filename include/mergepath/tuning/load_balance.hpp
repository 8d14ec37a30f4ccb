// Tile geometry of the GPU load-balancing calls: a tile is tile_items() steps of the path through
// (segment starts, items), walked items_per_thread steps by each thread.
#pragma once

#include <cstddef>
#include <ostream>

#include "../detail/config.hpp"

namespace mergepath {

struct load_balance_tuning {
  int block_threads;     // threads per block
  int items_per_thread;  // steps of the path each thread walks (starts plus items)

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline std::ostream& operator<<(std::ostream& os, const load_balance_tuning& t) {
  return os << "{block_threads " << t.block_threads << ", items_per_thread " << t.items_per_thread << "}";
}

// transform_lbs and everything built on it: a tile marks its segments' first items in a bitmap
// (a word per 32 items) and finds an item's segment from its word or a scan over the words. The
// kernel is bound by its instructions, not by DRAM (ncu, H200). With f writing just the segment
// (load_balancing_search), longer tiles spread the per-tile work thinner (H200, 2^26 int32, bench
// --tunings at 0978d7c: 128 x 47 took 0.155 / 0.108 / 0.100 ms at means 4 / 300 / 1e6, 128 x 31
// 0.156 / 0.112 / 0.103, 128 x 15 0.182 / 0.126 / 0.116); with a heavier f they were slower at short
// segments (interval_expand, merge_join at means 4 and 1), so the general default stays 128 x 15.
constexpr load_balance_tuning default_transform_lbs_tuning = {128, 15};
constexpr load_balance_tuning load_balancing_search_tuning = {128, 47};

// segmented_reduce: a tile also holds its items' values in shared memory, so wider values take
// shorter tiles (about 64 bytes of values a thread, an odd count as above). 256 threads were
// slower at every mean; 64 threads, or 23 or 31 steps, no faster (bench --tunings, H200).
constexpr load_balance_tuning segmented_reduce_tuning_for(std::size_t value_bytes) {
  int items = static_cast<int>(64 / (value_bytes == 0 ? 1 : value_bytes));
  items = items < 1 ? 1 : (items > 15 ? 15 : items);
  return {128, items % 2 == 0 ? items - 1 : items};
}

// The policies (types with `static constexpr load_balance_tuning tuning`) the entry points use;
// the *_tuned entry points take the caller's own.
struct default_transform_lbs_policy {
  static constexpr load_balance_tuning tuning = default_transform_lbs_tuning;
};
struct load_balancing_search_policy {
  static constexpr load_balance_tuning tuning = load_balancing_search_tuning;
};
template <class T>
struct default_segmented_reduce_policy {
  static constexpr load_balance_tuning tuning = segmented_reduce_tuning_for(sizeof(T));
};

}  // namespace mergepath
