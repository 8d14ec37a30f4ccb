// L2 eviction hints for the one-search-per-needle kernels. Searching an array larger than L2 with
// random needles, a search's deep levels are read about once each (2^l nodes at level l), its
// upper ones over and over: reading the deep levels, the needles and the bounds as evict-first
// keeps the upper levels in L2 (H200, 2^26 int32 keys: Eytzinger 10%, binary 4% faster).
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "config.hpp"

namespace mergepath {
namespace detail {

// A load of it[i], evict-first in L2 when `first` is set. Only 4- and 8-byte values read through
// raw pointers carry the hint; other iterators and sizes read as usual.
class l2_evict_first_loader {
 public:
  __device__ l2_evict_first_loader() {
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy_));
  }

  template <class It>
  __device__ typename std::iterator_traits<It>::value_type load(It it, index_t i, bool first) const {
    using T = typename std::iterator_traits<It>::value_type;
    if constexpr (std::is_pointer_v<It> && std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
      if (first) {
        using bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        bits_t bits;
        if constexpr (sizeof(T) == 4)
          asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(bits) : "l"(it + i), "l"(policy_));
        else
          asm volatile("ld.global.L2::cache_hint.b64 %0, [%1], %2;" : "=l"(bits) : "l"(it + i), "l"(policy_));
        T value;
        std::memcpy(&value, &bits, sizeof(T));
        return value;
      }
    }
    return it[i];
  }

 private:
  std::uint64_t policy_;
};

// A read of *it that L1 evicts first, where the type allows (4- or 8-byte trivially copyable
// values through a raw pointer into global memory); other iterators and sizes read as usual.
struct l1_evict_first_load {
  template <class It>
  __device__ typename std::iterator_traits<It>::value_type operator()(It it) const {
    using T = typename std::iterator_traits<It>::value_type;
    if constexpr (std::is_pointer_v<It> && std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8)) {
      using bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      bits_t bits;
      if constexpr (sizeof(T) == 4)
        asm volatile("ld.global.L1::evict_first.b32 %0, [%1];" : "=r"(bits) : "l"(it));
      else
        asm volatile("ld.global.L1::evict_first.b64 %0, [%1];" : "=l"(bits) : "l"(it));
      T value;
      std::memcpy(&value, &bits, sizeof(T));
      return value;
    } else {
      return *it;
    }
  }
};

// Streaming (evict-first) reads and writes of data touched once, where the type allows (CUDA's
// __ldcs / __stcs take pointers to built-in types); otherwise plain ones.
template <class It>
__device__ typename std::iterator_traits<It>::value_type load_streaming(It it, index_t i) {
  using T = typename std::iterator_traits<It>::value_type;
  if constexpr (std::is_pointer_v<It> && std::is_arithmetic_v<T> && !std::is_same_v<T, bool>)
    return __ldcs(it + i);
  else
    return it[i];
}
template <class It, class T>
__device__ void store_streaming(It it, index_t i, const T& value) {
  using U = std::remove_reference_t<decltype(*it)>;
  if constexpr (std::is_pointer_v<It> && std::is_arithmetic_v<U> && !std::is_same_v<U, bool> && !std::is_const_v<U>)
    __stcs(it + i, static_cast<U>(value));
  else
    it[i] = value;
}

}  // namespace detail
}  // namespace mergepath
