// Shared-memory rings: a run that streams through a fixed buffer, refilled as it is consumed.
#pragma once

#include "../detail/config.hpp"
#include "tile_io.cuh"

namespace mergepath {
namespace block {

// Element i of the view lives at buffer[(start + i) mod size]; start < size, i < size.
template <class T>
struct circular_view {
  const T* buffer;
  int start;
  int size;
  MERGEPATH_HD const T& operator[](int i) const {
    int j = start + i;  // one wrap at most
    return buffer[j >= size ? j - size : j];
  }
  MERGEPATH_HD circular_view operator+(int offset) const {
    int s = start + offset;
    return {buffer, s >= size ? s - size : s, size};
  }
};

// Rings are filled with copy_run_to_shared<..., RingSize> (tile_io.cuh); a run whose first
// element goes to slot address_residue(first) moves in whole 16-byte pieces.

}  // namespace block
}  // namespace mergepath
