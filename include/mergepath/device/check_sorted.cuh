// Checked mode on the GPU: find the first out-of-order position of an input.
#pragma once

#include <cstdint>

#include "../context.hpp"
#include "../error.hpp"

namespace mergepath {
namespace kernel {

// *first = min over i in [1, count) with comp(x[i], x[i - 1]); untouched when x is sorted.
template <class It, class Comp>
__global__ void first_unsorted_kernel(It x, index_t count, unsigned long long* first, Comp comp) {
  for (index_t i = 1 + blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (comp(x[i], x[i - 1])) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;  // later positions of this thread are larger
    }
}

}  // namespace kernel

namespace device {

// Position of the first element of x[0, count) ordered before its predecessor, or -1 when
// sorted. One pass over x, then waits for the answer.
template <class It, class Comp>
index_t first_unsorted(cuda_context& ctx, It x, index_t count, Comp comp) {
  if (count < 2) return -1;
  auto first = ctx.allocate<unsigned long long>(1);
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), ctx.stream()));
  constexpr int threads = 256;
  int blocks = static_cast<int>(
      detail::min_of<index_t>(detail::ceil_div<index_t>(count, threads), 4 * ctx.props().multiProcessorCount * 8));
  detail::launch("first_unsorted_kernel", kernel::first_unsorted_kernel<It, Comp>, blocks, threads, 0, ctx.stream(), x,
                 count, first.data(), comp);
  unsigned long long result = 0;
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(&result, first.data(), sizeof(result), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.synchronize();
  return result == ~0ull ? -1 : static_cast<index_t>(result);
}

// Checked mode's test of one input that must be sorted by comp: throws naming its first
// position out of order.
template <class It, class Comp>
void check_sorted(cuda_context& ctx, const char* algorithm, const char* name, It x, index_t count, Comp comp) {
  if (!ctx.checked()) return;
  if (index_t i = first_unsorted(ctx, x, count, comp); i >= 0) detail::throw_unsorted(algorithm, name, i);
}

template <class AIt, class BIt, class Comp>
void check_merge_inputs(cuda_context& ctx, const char* algorithm, AIt a, index_t a_count, BIt b, index_t b_count,
                        Comp comp) {
  check_sorted(ctx, algorithm, "a", a, a_count, comp);
  check_sorted(ctx, algorithm, "b", b, b_count, comp);
}

}  // namespace device
}  // namespace mergepath
