// Spellings shared by every layer: the host/device qualifier and the backend switch.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define MERGEPATH_HD __host__ __device__
#define MERGEPATH_HAS_CUDA 1
#else
#define MERGEPATH_HD
#define MERGEPATH_HAS_CUDA 0
#endif

// Unrolls fixed-count loops over register arrays (a run-time index would spill them to memory).
#if defined(__CUDA_ARCH__)
#define MERGEPATH_UNROLL _Pragma("unroll")
#else
#define MERGEPATH_UNROLL
#endif

namespace mergepath {

// Counts and global positions are 64-bit everywhere in the API.
using index_t = std::int64_t;

namespace detail {

template <class T>
MERGEPATH_HD constexpr T min_of(T a, T b) {
  return b < a ? b : a;
}
template <class T>
MERGEPATH_HD constexpr T max_of(T a, T b) {
  return a < b ? b : a;
}
template <class T>
MERGEPATH_HD constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}
MERGEPATH_HD inline int popcount(unsigned bits) {
#if defined(__CUDA_ARCH__)
  return __popc(bits);
#else
  return __builtin_popcount(bits);
#endif
}

// The architecture the code being compiled now runs as: __CUDA_ARCH__ / 10 in a device pass, 0
// in host code, which must ask the running kernel instead (detail::running_code_arch).
#if defined(__CUDA_ARCH__)
constexpr int code_arch = __CUDA_ARCH__ / 10;
#else
constexpr int code_arch = 0;
#endif

// Makes the GPU compiler hold `bits` in a register here. Bits OR-ed in from comparisons are
// otherwise kept as predicates for as long as it can, then moved bit by bit between registers
// once predicates run out (SASS of the index_match walk: ~6 instructions a step).
MERGEPATH_HD inline void materialize(unsigned& bits) {
#if defined(__CUDA_ARCH__)
  asm("" : "+r"(bits));
#else
  (void)bits;
#endif
}

}  // namespace detail
}  // namespace mergepath
