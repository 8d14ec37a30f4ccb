// Where mergepath::sort takes CUB's radix sort on a GPU, and where the merge sort.
#pragma once

#include <limits>
#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {

// Where a sort's result goes: back into its input arrays, or into others (sort_copy).
enum class sort_lands { in_place, in_other_arrays };

// A radix_min_count that no sort reaches.
constexpr index_t never_radix = std::numeric_limits<index_t>::max();

struct sort_tuning {
  // From this many keys up the radix sort runs where it can: below, the merge sort of a few tiles
  // finishes before a radix sort's fixed passes and launches (4 for 32-bit keys).
  index_t radix_min_count = index_t{1} << 17;
  // Up to this many keys the radix sort runs too: CUB sorts them in one block of one launch (its
  // single-tile path) while the blocksort fills a whole tile (0: never). Bench "sort" rows at
  // 2^10 .. 2^16 measure both edges.
  index_t radix_max_small_count = 0;
  // The same for sorts into other arrays, where the single tile lands without a copy back.
  index_t radix_max_small_copy_count = 0;
  constexpr bool takes_radix(index_t count, sort_lands lands = sort_lands::in_place) const {
    const index_t small = lands == sort_lands::in_place ? radix_max_small_count : radix_max_small_copy_count;
    return count <= small || count >= radix_min_count;
  }
};

template <class Key, class Val = void>
struct default_sort_policy {
  // Small sorts merge: the cluster sort and self-partitioned passes beat CUB's radix sort's fixed
  // passes (and its copy back in place). Keys of 4 bytes merge-sort up to 2^23; pairs take the
  // radix sort past 2^19, where the merge sort's cluster sort ends. Wider keys alone merge-sort at
  // every size: CUB sorts 64-bit keys in twice the passes
  // (docs/design/merge-and-mergesort.md#what-was-tried).
  static constexpr sort_tuning tuning{
      std::is_void_v<Val> ? (sizeof(Key) <= 4 ? index_t{1} << 23 : never_radix) : (index_t{1} << 19) + 1, 0, 0};
};

}  // namespace mergepath
