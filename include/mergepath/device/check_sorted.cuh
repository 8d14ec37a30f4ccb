// Checked mode on the GPU: the first position of an input that breaks a data precondition
// (thread/preconditions.hpp), found in one pass that the call then waits for.
#pragma once

#include <cstdint>
#include <utility>

#include "../context.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../thread/preconditions.hpp"

namespace mergepath {
namespace kernel {

// *first = the least i in [0, count) with bad(i); untouched when there is none.
template <class Bad>
__global__ void first_position_kernel(index_t count, Bad bad, unsigned long long* first) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    if (bad(i)) {
      atomicMin(first, static_cast<unsigned long long>(i));
      return;  // later positions of this thread are larger
    }
}

// values[0, 1] = x[i], x[i - 1] (0 for i = 0): what checked mode's message quotes.
template <class It>
__global__ void value_and_previous_kernel(It x, index_t i, long long* values) {
  values[0] = static_cast<long long>(x[i]);
  values[1] = i > 0 ? static_cast<long long>(x[i - 1]) : 0;
}

}  // namespace kernel

namespace device {

// The least i in [0, count) with bad(i), or -1; waits for the answer.
template <class Bad>
index_t first_position_where(cuda_context& ctx, index_t count, Bad bad) {
  if (count == 0) return -1;
  auto first = ctx.allocate<unsigned long long>(1);
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), ctx.stream()));
  constexpr int threads = 256;
  const int blocks = static_cast<int>(
      detail::min_of<index_t>(detail::ceil_div<index_t>(count, threads), 32 * ctx.props().multiProcessorCount));
  detail::launch("first_position_kernel", kernel::first_position_kernel<Bad>, blocks, threads, 0, ctx.stream(), count,
                 bad, first.data());
  unsigned long long result = 0;
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(&result, first.data(), sizeof(result), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.synchronize();
  return result == ~0ull ? -1 : static_cast<index_t>(result);
}

// {x[i], x[i - 1]} (0 for i = 0), fetched for checked mode's message; waits for them.
template <class It>
std::pair<long long, long long> value_and_previous(cuda_context& ctx, It x, index_t i) {
  auto values = ctx.allocate<long long>(2);
  detail::launch("value_and_previous_kernel", kernel::value_and_previous_kernel<It>, 1, 1, 0, ctx.stream(), x, i,
                 values.data());
  long long found[2] = {0, 0};
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(found, values.data(), sizeof(found), cudaMemcpyDeviceToHost, ctx.stream()));
  ctx.synchronize();
  return {found[0], found[1]};
}

// Position of the first element of x[0, count) ordered before its predecessor, or -1 when sorted.
template <class It, class Comp>
index_t first_unsorted(cuda_context& ctx, It x, index_t count, Comp comp) {
  return first_position_where(ctx, count, ordered_before_predecessor<It, Comp>{x, comp});
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

namespace backend {
using device::check_merge_inputs;
using device::check_sorted;
}  // namespace backend
}  // namespace mergepath
