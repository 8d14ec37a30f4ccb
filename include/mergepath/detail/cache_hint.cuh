// L2 eviction hints for the one-search-per-needle kernels. Searching an array larger than L2 with
// random needles, a search's deep levels are read about once each (2^l nodes at level l), its
// upper ones over and over: reading the deep levels, the needles and the bounds as evict-first
// keeps the upper levels in L2 (docs/design/search.md#3-tuning).
#pragma once

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "config.hpp"

namespace mergepath {
namespace detail {

// Whether a read through It can carry a PTX cache hint: 4- or 8-byte trivially copyable values
// through a raw pointer into global memory (the hinted loads move .b32 and .b64 registers).
template <class It>
constexpr bool takes_cache_hint = [] {
  using T = std::remove_pointer_t<It>;
  return std::is_pointer_v<It> && std::is_trivially_copyable_v<T> && (sizeof(T) == 4 || sizeof(T) == 8);
}();

// *p read by load_bits, which gets p as a pointer to the unsigned integer of p's size (for
// pointers that takes_cache_hint accepts).
template <class T, class LoadBits>
__device__ T load_through_bits(const T* p, LoadBits load_bits) {
  using bits_t = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  const bits_t bits = load_bits(reinterpret_cast<const bits_t*>(p));
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// The hinted loads themselves, one per register width.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
__device__ inline std::uint32_t load_l2_hinted(const std::uint32_t* p, std::uint64_t policy) {
  std::uint32_t bits;
  asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(bits) : "l"(p), "l"(policy));
  return bits;
}
__device__ inline std::uint64_t load_l2_hinted(const std::uint64_t* p, std::uint64_t policy) {
  std::uint64_t bits;
  asm volatile("ld.global.L2::cache_hint.b64 %0, [%1], %2;" : "=l"(bits) : "l"(p), "l"(policy));
  return bits;
}
#endif
__device__ inline std::uint32_t load_l1_evict_first(const std::uint32_t* p) {
  std::uint32_t bits;
  asm volatile("ld.global.L1::evict_first.b32 %0, [%1];" : "=r"(bits) : "l"(p));
  return bits;
}
__device__ inline std::uint64_t load_l1_evict_first(const std::uint64_t* p) {
  std::uint64_t bits;
  asm volatile("ld.global.L1::evict_first.b64 %0, [%1];" : "=l"(bits) : "l"(p));
  return bits;
}

// A read of *it, evict-first in L2 when `first` is set (where takes_cache_hint allows; other
// iterators and sizes read as usual).
class l2_evict_first_loader {
 public:
  __device__ l2_evict_first_loader() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy_));
#endif
  }

  template <class It>
  __device__ typename std::iterator_traits<It>::value_type load(It it, bool first) const {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800  // L2 cache policies begin with sm_80
    if constexpr (takes_cache_hint<It>) {
      if (first) return load_through_bits(it, [&](auto p) { return load_l2_hinted(p, policy_); });
    }
#else
    (void)first;
#endif
    return *it;
  }

 private:
  std::uint64_t policy_ = 0;
};

// A read of *it that L1 evicts first (where takes_cache_hint allows; other iterators and sizes
// read as usual).
struct l1_evict_first_load {
  template <class It>
  __device__ typename std::iterator_traits<It>::value_type operator()(It it) const {
    if constexpr (takes_cache_hint<It>)
      return load_through_bits(it, [](auto p) { return load_l1_evict_first(p); });
    else
      return *it;
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
