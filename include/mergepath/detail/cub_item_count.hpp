// The item count CUB's device algorithms get, where its type picks their offsets' type.
#pragma once

#include <cstdint>
#include <limits>

#include "config.hpp"

namespace mergepath {
namespace device {

// Calls f with count as CUB's item count. CUB takes its offset type from the count's: an int keeps
// the 32-bit offsets, which sort faster (docs/design/merge-and-mergesort.md#what-was-tried); an
// int64 one takes counts past 2^31.
template <class F>
void with_cub_item_count(index_t count, F f) {
  if (count <= std::numeric_limits<std::int32_t>::max())
    f(static_cast<std::int32_t>(count));
  else
    f(static_cast<std::int64_t>(count));
}

}  // namespace device
}  // namespace mergepath
