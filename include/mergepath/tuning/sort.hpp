// Where mergepath::sort switches from the merge sort to CUB's radix sort on a GPU.
#pragma once

#include "../detail/config.hpp"

namespace mergepath {

struct sort_tuning {
  // Below this many keys the merge sort runs even where the radix sort could: a radix sort makes
  // a fixed number of passes (4 for 32-bit keys) and launches, and the merge sort of a few tiles
  // finishes first. Bench "sort" rows measure the crossover.
  index_t radix_min_count = index_t{1} << 17;
};

template <class Key, class Val = void>
struct default_sort_policy {
  static constexpr sort_tuning tuning{};
};

}  // namespace mergepath
