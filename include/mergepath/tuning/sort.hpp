// Where mergepath::sort takes CUB's radix sort on a GPU, and where the merge sort.
#pragma once

#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {

// Where a sort's result goes: back into its input arrays, or into others (sort_copy).
enum class sort_lands { in_place, in_other_arrays };

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
  // H100, int32 keys: 2^10 and 2^12 sorted in place by CUB's single tile (plus the copy back) in
  // 17-18 us against 22-23 for the merge sort, 2^13 in 44-47 against 24. Pairs pay two copies
  // back in place (25 us against 20); into other arrays they pay none. Wider keys were not
  // measured: they keep the merge sort there.
  static constexpr bool small_radix = sizeof(Key) <= 4 && std::is_void_v<Val>;
  static constexpr bool small_radix_copy = sizeof(Key) <= 4;
  static constexpr sort_tuning tuning{index_t{1} << 17, small_radix ? index_t{1} << 12 : 0,
                                      small_radix_copy ? index_t{1} << 12 : 0};
};

}  // namespace mergepath
