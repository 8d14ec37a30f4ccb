// The data preconditions checked mode tests, a position at a time, on either backend: each
// functor says whether position i breaks its rule, and checked mode looks for the first that does
// (host::first_position_where, device::first_position_where).
#pragma once

#include "../detail/config.hpp"

namespace mergepath {

// x[i] ordered before x[i - 1]: x is not sorted by comp there.
template <class It, class Comp>
struct ordered_before_predecessor {
  It x;
  Comp comp;
  MERGEPATH_HD bool operator()(index_t i) const { return i > 0 && comp(x[i], x[i - 1]); }
};

// segment_starts[s] is not 0 (s = 0), below its predecessor, or past count.
template <class StartsIt>
struct bad_segment_start {
  StartsIt starts;
  index_t count;
  MERGEPATH_HD bool operator()(index_t s) const {
    const auto value = static_cast<long long>(starts[s]);
    if (s == 0) return value != 0;
    return value < static_cast<long long>(starts[s - 1]) || value > count;
  }
};

// heads[i] is out of [0, count) or not above its predecessor.
template <class HeadsIt>
struct bad_segment_head {
  HeadsIt heads;
  index_t count;
  MERGEPATH_HD bool operator()(index_t i) const {
    const auto h = static_cast<long long>(heads[i]);
    return h < 0 || h >= count || (i > 0 && h <= static_cast<long long>(heads[i - 1]));
  }
};

}  // namespace mergepath
