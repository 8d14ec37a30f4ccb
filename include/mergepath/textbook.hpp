// The textbook ladder of GPU merge kernels (Programming Massively Parallel Processors ch. 12; the
// ECE 508 lecture), for study and comparison; use mergepath::merge for real work. Same contract
// as merge (stable, any comparator, 64-bit counts, asynchronous on ctx.stream()), keys only,
// cuda_context only.
#pragma once

#include "context.hpp"
#include "error.hpp"
#include "functional.hpp"

#if MERGEPATH_HAS_CUDA
#include "detail/launch.cuh"
#include "kernel/textbook_merge.cuh"

namespace mergepath {
namespace textbook {

// The ladder's fixed shapes: the lecture's advice of tiles of a few hundred to a thousand
// elements, tens of outputs per thread per tile, and sections of several thousand per block.
struct ladder_shape {
  static constexpr int block_threads = 128;
  static constexpr int basic_items_per_thread = 8;
  static constexpr int tile_items = 1024;
  static constexpr int section_items = 16 * tile_items;
};

namespace detail_ {
template <class AIt, class BIt, class OutIt>
void validate(const char* name, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out) {
  detail::require_range(name, "a", a, a_count);
  detail::require_range(name, "b", b, b_count);
  detail::require_range(name, "out", out, a_count + b_count);
}

template <bool Circular, class AIt, class BIt, class OutIt, class Comp>
void launch_tiled(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp) {
  using T = typename std::iterator_traits<AIt>::value_type;
  using shape = ladder_shape;
  index_t total = a_count + b_count;
  if (total == 0) return;
  auto blocks = detail::ceil_div<index_t>(total, shape::section_items);
  std::size_t shared_bytes = 2 * shape::tile_items * sizeof(T);
  auto kernel =
      kernel::textbook_merge_tiled_kernel<shape::block_threads, shape::tile_items, Circular, AIt, BIt, OutIt, Comp>;
  if (shared_bytes > 48 * 1024)
    MERGEPATH_CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  detail::launch("textbook_merge_tiled_kernel", kernel, static_cast<unsigned>(blocks), shape::block_threads,
                 shared_bytes, ctx.stream(), a, a_count, b, b_count, out, index_t{shape::section_items}, comp);
}
}  // namespace detail_

// Step 1: one thread per output slice, co-rank and merge straight from global memory.
template <class AIt, class BIt, class OutIt, class Comp = less<>>
void merge_basic(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail_::validate("textbook::merge_basic", a, a_count, b, b_count, out);
  index_t total = a_count + b_count;
  if (total == 0) return;
  using shape = ladder_shape;
  auto threads = detail::ceil_div<index_t>(total, shape::basic_items_per_thread);
  auto blocks = detail::ceil_div<index_t>(threads, shape::block_threads);
  detail::launch("textbook_merge_basic_kernel", kernel::textbook_merge_basic_kernel<AIt, BIt, OutIt, Comp>,
                 static_cast<unsigned>(blocks), shape::block_threads, 0, ctx.stream(), a, a_count, b, b_count, out,
                 index_t{shape::basic_items_per_thread}, comp);
}

// Step 2: tiles of A and B in shared memory, whole tiles reloaded each step.
template <class AIt, class BIt, class OutIt, class Comp = less<>>
void merge_tiled(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail_::validate("textbook::merge_tiled", a, a_count, b, b_count, out);
  detail_::launch_tiled<false>(ctx, a, a_count, b, b_count, out, comp);
}

// Step 3: circular tiles, refilled with only what the last step consumed.
template <class AIt, class BIt, class OutIt, class Comp = less<>>
void merge_circular(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, Comp comp = {}) {
  detail_::validate("textbook::merge_circular", a, a_count, b, b_count, out);
  detail_::launch_tiled<true>(ctx, a, a_count, b, b_count, out, comp);
}

}  // namespace textbook
}  // namespace mergepath
#endif
