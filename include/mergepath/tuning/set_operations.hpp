// Tile geometry of the GPU set operations: a tile is tile_items() steps of the walk, its keys in
// shared memory, walked items_per_thread steps by each thread.
#pragma once

#include <cstddef>
#include <ostream>

#include "../detail/config.hpp"

namespace mergepath {

struct set_operation_tuning {
  int block_threads;     // threads per block
  int items_per_thread;  // steps of the walk each thread takes
  int min_blocks = 1;    // blocks an SM must hold at once (__launch_bounds__: caps the registers)

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
};

inline std::ostream& operator<<(std::ostream& os, const set_operation_tuning& t) {
  return os << "{block_threads " << t.block_threads << ", items_per_thread " << t.items_per_thread << "}";
}

// A tile holds its keys and one int per output (where it comes from): wider keys take shorter
// tiles, to keep a block's shared memory near 24 KB. The kernel is bound by its instructions (ncu,
// H200), so long walks pay: they spread each thread's split search and the block scan over more
// steps (H200, set_union of 2^25 + 2^25 int32: 128 x 23 took 0.399 ms, 128 x 15 0.439, 256 x 8 0.556).
// Eight blocks an SM for 4-byte keys, as their shared memory allows: set_union had taken 96
// registers a thread, five blocks (ncu, H200).
constexpr set_operation_tuning set_operation_tuning_for(std::size_t key_bytes) {
  return {128, key_bytes <= 4 ? 23 : (key_bytes <= 8 ? 15 : 7), key_bytes <= 4 ? 8 : 1};
}

// The policy (a type with `static constexpr set_operation_tuning tuning`) the entry points use.
template <class Key>
struct default_set_operation_policy {
  static constexpr set_operation_tuning tuning = set_operation_tuning_for(sizeof(Key));
};

}  // namespace mergepath
