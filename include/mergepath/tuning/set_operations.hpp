// Tile geometry of the GPU set operations: a tile is at most tile_items() keys of the two inputs,
// its keys in shared memory, each thread merging items_per_thread of them.
#pragma once

#include <cstddef>
#include <ostream>

#include "../detail/config.hpp"
#include "../thread/set_operations.hpp"
#include "arch.hpp"

namespace mergepath {

struct set_operation_tuning {
  int block_threads;     // threads per block
  int items_per_thread;  // keys each thread merges (at most 32: a thread's kept steps are bits)
  int min_blocks = 1;    // blocks an SM must hold at once (__launch_bounds__: caps the registers)
  // A block asks L2 for the runs of the tile this many tiles per SM ahead of its own (0: none).
  float prefetch_tiles_per_sm = 1;

  MERGEPATH_HD constexpr int tile_items() const { return block_threads * items_per_thread; }
  // Keys between the tiles' splits. A split falls a key short of its diagonal where a pair of
  // equivalent keys straddles it, so tiles are spaced one key less than they hold.
  MERGEPATH_HD constexpr int tile_span() const { return tile_items() - 1; }
};

inline std::ostream& operator<<(std::ostream& os, const set_operation_tuning& t) {
  return os << "{block_threads " << t.block_threads << ", items_per_thread " << t.items_per_thread << ", min_blocks "
            << t.min_blocks << ", prefetch_tiles_per_sm " << t.prefetch_tiles_per_sm << "}";
}

// The kernel is bound by latencies (a block waits on its splits, its loads and the look-back in
// turn), so long shares, large tiles and the register bound pay. A fifth block an SM at 48
// registers (256 x 27) beat 256 x 31 at 4 in union, intersection and difference; symmetric
// difference spills there and keeps 256 x 31. By key, shared memory also holds where each output
// comes from, so 4-byte keys take the shorter 128 x 23 tile (static shared memory stops at 48 KB).
// Wider keys: shorter tiles, not measured since the merge walk. Asking L2 for the tile one per SM
// ahead pays; 4 per SM and beyond is slower than none
// (docs/design/join-and-set-operations.md#tuning).
constexpr set_operation_tuning set_operation_tuning_for(set_op op, std::size_t key_bytes, bool by_key = false) {
  if (key_bytes <= 4 && by_key) return {128, 23, 8};
  if (key_bytes <= 4)
    return op == set_op::symmetric_difference ? set_operation_tuning{256, 31, 4} : set_operation_tuning{256, 27, 5};
  if (key_bytes <= 8) return {128, 15, 1};
  return {128, 7, 1};
}

// The policy (a type with `static constexpr set_operation_tuning tuning`) the entry points use.
template <set_op Op, class Key, bool ByKey = false>
struct default_set_operation_policy {
  static constexpr set_operation_tuning tuning = set_operation_tuning_for(Op, sizeof(Key), ByKey);
};

}  // namespace mergepath
