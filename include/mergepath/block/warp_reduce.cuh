// Whole-warp reductions of 32-bit integers, on every lane: one redux instruction where the
// kernel is compiled for sm_80 or later, five butterfly shuffles before (sm_75).
#pragma once

#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {
namespace block {

namespace detail_warp {
template <class T, class F>
__device__ T butterfly(T x, F f) {
  MERGEPATH_UNROLL
  for (int offset = 1; offset < 32; offset *= 2) x = f(x, __shfl_xor_sync(~0u, x, offset));
  return x;
}
template <class T>
constexpr bool is_word = std::is_same_v<T, int> || std::is_same_v<T, unsigned>;
}  // namespace detail_warp

enum class warp_op { sum, min, max };

// The reduction of x over the warp's 32 lanes, in every lane: sm_80's redux instruction where the
// code is compiled for it, else a butterfly of shuffles.
template <warp_op Op, class T>
__device__ T warp_reduce(T x) {
  static_assert(detail_warp::is_word<T>, "int or unsigned");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Op == warp_op::sum)
    return __reduce_add_sync(~0u, x);
  else if constexpr (Op == warp_op::min)
    return __reduce_min_sync(~0u, x);
  else
    return __reduce_max_sync(~0u, x);
#else
  return detail_warp::butterfly(x, [](T a, T b) {
    if constexpr (Op == warp_op::sum)
      return a + b;
    else if constexpr (Op == warp_op::min)
      return b < a ? b : a;
    else
      return a < b ? b : a;
  });
#endif
}

template <class T>
__device__ T warp_sum(T x) {
  return warp_reduce<warp_op::sum>(x);
}
template <class T>
__device__ T warp_min(T x) {
  return warp_reduce<warp_op::min>(x);
}
template <class T>
__device__ T warp_max(T x) {
  return warp_reduce<warp_op::max>(x);
}

}  // namespace block
}  // namespace mergepath
