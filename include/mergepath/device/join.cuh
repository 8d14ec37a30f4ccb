// merge_join and sort_merge_join on a cuda_context (join.hpp documents them): one sorted search
// whose tiles also scan each a row's output rows (kernel/join.cuh), the totals published to the
// host (the one wait), then transform_lbs writing the pairs and a kernel writing the lone b rows.
#pragma once

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <type_traits>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/join.cuh"
#include "../thread/join.hpp"
#include "../tuning/load_balance.hpp"
#include "../tuning/sorted_search.hpp"
#include "check_sorted.cuh"
#include "load_balance.cuh"
#include "mergesort.cuh"
#include "result_counts.cuh"
#include "set_operations.cuh"
#include "sort.cuh"
#include "sorted_search.cuh"

namespace mergepath {
namespace detail {
template <class T>
struct owned_array<cuda_context, T> {
  using type = temp_buffer<T>;
};
}  // namespace detail

namespace kernel {

// f(i) for every i in [0, count).
template <class F>
__global__ void for_each_index_kernel(F f, index_t count) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    f(i);
}

// flags[j] = 1 for each lone b row (thread/join.hpp), flags[b_count] = 0 (for the scan).
template <class AIt, class BIt, class Index, class Comp>
struct lone_b_flags {
  AIt a;
  index_t a_count;
  BIt b;
  const Index* upper;
  index_t b_count;
  Index* flags;
  Comp comp;
  __device__ void operator()(index_t j) const {
    flags[j] = j < b_count && detail::is_lone_b(a, b, j, detail::clamped_bound(upper[j], a_count), comp);
  }
};

// Row i's output rows from its stored lower bound; 0 for i = a_count (an exclusive scan's last).
template <class RowCounter, class Index>
struct row_counts_from_lowers {
  RowCounter row_count;
  const Index* lowers;
  index_t a_count;
  __device__ index_t operator()(index_t i) const { return i < a_count ? row_count(i, lowers[i]) : 0; }
};

// An exclusive scan's outputs as 32-bit offsets (narrowed: valid where the total fits), the last
// one, the total, also whole in *total.
struct narrow_offsets {
  std::int32_t* offsets;
  index_t* total;
  index_t count;
  __device__ void operator()(index_t i, index_t value) const {
    offsets[i] = static_cast<std::int32_t>(value);
    if (i == count) *total = value;
  }
};

// keys[i] = x[i], rows[i] = i: the copies sort_merge_join sorts.
template <class It, class Key, class Index>
struct copy_with_rows {
  It x;
  Key* keys;
  Index* rows;
  __device__ void operator()(index_t i) const {
    keys[i] = x[i];
    rows[i] = static_cast<Index>(i);
  }
};

}  // namespace kernel

namespace device {

template <class F>
void for_each_index(cuda_context& ctx, F f, index_t count) {
  if (count == 0) return;
  constexpr int threads = 256;
  const index_t blocks = detail::min_of<index_t>(detail::ceil_div<index_t>(count, threads),
                                                 16 * static_cast<index_t>(ctx.props().multiProcessorCount));
  detail::launch("for_each_index_kernel", kernel::for_each_index_kernel<F>, static_cast<unsigned>(blocks), threads, 0,
                 ctx.stream(), f, count);
}

template <join_kind Kind, class Index, class AIt, class BIt, class ARows, class BRows, class Comp>
join_result<cuda_context, Index> join_sorted(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                                             ARows a_rows, BRows b_rows, Comp comp) {
  constexpr bool lone_b = detail::keeps_lone_b(Kind);
  if (a_count == 0 && b_count == 0)
    return {0, ctx.allocate<Index>(0), ctx.allocate<Index>(0), detail::has_b_index(Kind)};
  using search_policy = default_sorted_search_policy<kernel::value_of<AIt>>;
  using row_counter = detail::join_row_counter<Kind, Index, AIt, BIt, Comp>;
  const row_counter row_count{a, b, b_count, comp};
  // Each a row's lower bound in b, and the offsets of its output rows: 32-bit, half the bytes for
  // transform_lbs to read, their total whole; 64-bit offsets from a scan where the total needs
  // them. (lone_b) the upper bound of each b in a, from the same search.
  auto lower = ctx.allocate<Index>(a_count);
  auto upper = ctx.allocate<Index>(lone_b ? b_count : 0);
  auto narrow_starts = ctx.allocate<std::int32_t>(a_count + 1);
  auto a_total_word = ctx.allocate<index_t>(1);
  const auto count_of_row = thrust::make_transform_iterator(
      thrust::counting_iterator<index_t>(0),
      kernel::row_counts_from_lowers<row_counter, Index>{row_count, lower.data(), a_count});
  const plain_bounds_paths few_rows =
      plain_bounds_paths_for<search_policy, kernel::value_of<BIt>>(ctx, a_count, b_count);
  if (lone_b || !(few_rows.needles || few_rows.b_tiles)) {
    // The search's tiles count each row's output rows and scan them across tiles as they store.
    launch_sorted_search<search_policy, bounds::lower, search::index, lone_b ? search::index : search::none>(
        ctx, a, a_count, b, b_count,
        kernel::join_bounds_and_starts<Kind, Index, AIt, BIt, Comp>{row_count, a_count, lower.data(),
                                                                    narrow_starts.data(), a_total_word.data()},
        upper.data(), comp);
  } else {
    // Few rows of a, a long b: their bounds one needle at a time, then a scan of their rows.
    launch_sorted_search<search_policy, bounds::lower, search::index, search::none>(ctx, a, a_count, b, b_count,
                                                                                    lower.data(), upper.data(), comp);
    exclusive_scan(ctx, count_of_row, a_count,
                   thrust::make_tabulate_output_iterator(
                       kernel::narrow_offsets{narrow_starts.data(), a_total_word.data(), a_count}));
  }
  auto lone_b_before = ctx.allocate<index_t>(lone_b ? b_count + 1 : 0);
  if constexpr (lone_b) {
    auto flags = ctx.allocate<Index>(b_count + 1);
    for_each_index(
        ctx, kernel::lone_b_flags<AIt, BIt, Index, Comp>{a, a_count, b, upper.data(), b_count, flags.data(), comp},
        b_count + 1);
    exclusive_scan(ctx, static_cast<const Index*>(flags.data()), b_count, lone_b_before.data());
  }
  const auto totals = wait_for_counts(
      ctx, publish_counts(ctx, a_total_word.data(), lone_b ? lone_b_before.data() + b_count : nullptr));
  const index_t a_total = totals.first, b_total = totals.second;
  const bool wide = a_total > index_t{INT32_MAX};
  auto wide_starts = ctx.allocate<index_t>(wide ? a_count + 1 : 0);
  if (wide) exclusive_scan(ctx, count_of_row, a_count, wide_starts.data());

  const index_t total = a_total + b_total;
  auto a_out = ctx.allocate<Index>(total);
  auto b_out = ctx.allocate<Index>(detail::has_b_index(Kind) ? total : 0);
  auto write_rows = [&](auto a_starts) {
    if (a_total > 0)
      launch_transform_lbs<default_transform_lbs_policy>(
          ctx,
          detail::join_row_writer<Kind, Index, AIt, BIt, ARows, BRows, Comp>{
              a, b, b_count, lower.data(), lone_b_before.data(), a_rows, b_rows, a_out.data(), b_out.data(), comp},
          a_total, a_starts, a_count);
    if constexpr (lone_b)
      for_each_index(ctx,
                     detail::lone_b_writer<Index, AIt, BIt, BRows, Comp, decltype(a_starts)>{
                         a, a_count, b, upper.data(), a_starts, lone_b_before.data(), total, b_rows, a_out.data(),
                         b_out.data(), comp},
                     b_count);
  };
  if (wide)
    write_rows(static_cast<const index_t*>(wide_starts.data()));
  else
    write_rows(static_cast<const std::int32_t*>(narrow_starts.data()));
  return {total, std::move(a_out), std::move(b_out), detail::has_b_index(Kind)};
}

// Copies of x with their row numbers, sorted stably by key on the GPU (sort_pairs: CUB's radix
// sort where it orders the keys as comp does); 32-bit row numbers where they fit.
template <class Index, class It, class Comp>
struct sorted_rows {
  using Key = kernel::value_of<It>;
  bool narrow;
  temp_buffer<Key> keys;
  temp_buffer<std::int32_t> narrow_rows;
  temp_buffer<Index> wide_rows;
  sorted_rows(cuda_context& ctx, It x, index_t count, Comp comp)
      : narrow(detail::rows_fit_int32(count)),
        keys(ctx.allocate<Key>(count)),
        narrow_rows(ctx.allocate<std::int32_t>(narrow ? count : 0)),
        wide_rows(ctx.allocate<Index>(narrow ? 0 : count)) {
    if (narrow)
      sort_with_rows(ctx, x, count, narrow_rows.data(), comp);
    else
      sort_with_rows(ctx, x, count, wide_rows.data(), comp);
  }
  detail::sorted_row_numbers<Index> rows() const { return {narrow ? narrow_rows.data() : nullptr, wide_rows.data()}; }

 private:
  template <class Row>
  void sort_with_rows(cuda_context& ctx, It x, index_t count, Row* rows, Comp comp) {
    for_each_index(ctx, kernel::copy_with_rows<It, Key, Row>{x, keys.data(), rows}, count);
    device::sort_pairs(ctx, keys.data(), rows, count, comp);
  }
};

// sort_merge_join of join.hpp on a cuda_context, arguments already checked.
template <join_kind Kind, class Index, class AIt, class BIt, class Comp>
join_result<cuda_context, Index> sort_merge_join(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count,
                                                 Comp comp) {
  sorted_rows<Index, AIt, Comp> sa(ctx, a, a_count, comp), sb(ctx, b, b_count, comp);
  return join_sorted<Kind, Index>(ctx, static_cast<const kernel::value_of<AIt>*>(sa.keys.data()), a_count,
                                  static_cast<const kernel::value_of<BIt>*>(sb.keys.data()), b_count, sa.rows(),
                                  sb.rows(), comp);
}

}  // namespace device

namespace backend {
using device::join_sorted;
using device::sort_merge_join;
}  // namespace backend
}  // namespace mergepath
