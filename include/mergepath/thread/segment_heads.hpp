// Segment heads as a bitfield: bit i % 32 of word i / 32 marks element i as the first of its
// segment. Shared by both backends.
#pragma once

#include <cstdint>

#include "../detail/config.hpp"

namespace mergepath {

// Words of a head bitfield for `count` elements.
MERGEPATH_HD constexpr index_t head_flag_words(index_t count) { return (count + 31) / 32; }

// Whether element i is a segment head.
MERGEPATH_HD inline bool is_head(const std::uint32_t* flags, index_t i) {
  return (flags[i / 32] >> (i % 32)) & 1u;
}

// The heads among elements [first, first + Bits) of a bitfield for `count` elements, as a mask
// whose bit j is element first + j (Bits <= 32). Elements past count read as no head.
template <int Bits>
MERGEPATH_HD std::uint32_t head_bits(const std::uint32_t* flags, index_t count, index_t first) {
  static_assert(Bits >= 1 && Bits <= 32, "a thread's heads fit one 32-bit mask");
  if (first >= count) return 0;
  index_t word = first / 32;
  int shift = static_cast<int>(first % 32);
  std::uint64_t pair = flags[word];
  if (shift + Bits > 32 && word + 1 < head_flag_words(count)) pair |= std::uint64_t{flags[word + 1]} << 32;
  std::uint32_t bits = static_cast<std::uint32_t>(pair >> shift);
  if constexpr (Bits < 32) bits &= (1u << Bits) - 1u;
  index_t valid = count - first;
  if (valid < Bits) bits &= (1u << valid) - 1u;
  return bits;
}

}  // namespace mergepath
