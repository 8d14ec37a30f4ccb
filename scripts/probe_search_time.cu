// Where a sorted search's time goes: the median over reps of N back-to-back calls of the whole
// lower-bound search (A into B), of its partition pass alone and of its tile kernel alone, and
// of the complete index_match search, 2^26 + 2^26 int32 keys by default, timed with CUDA events.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 --extended-lambda -Xcompiler=-fopenmp -Iinclude \
//          scripts/probe_search_time.cu -o probe_search_time
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <cstdlib>
#include <mergepath/mergepath.hpp>

#include "probe_timing.cuh"

using mergepath::bounds;
using mergepath::index_t;
using mergepath::search;

template <int Threads, int Items, int Resident>
struct shape {
  static constexpr mergepath::sorted_search_tuning tuning{Threads, Items, Resident};
};

template <class Policy>
void measure(index_t n) {
  constexpr mergepath::sorted_search_tuning t = Policy::tuning;
  thrust::device_vector<int> a(n), b(n), a_out(n), b_out(n), copy_in(n + n / 2), copy_out(n + n / 2);
  // Random keys in [0, 2n), sorted: about half of each side finds an equal in the other.
  auto random_keys = [n](std::uint32_t seed) {
    return [n, seed] __device__(index_t i) {
      std::uint32_t h = static_cast<std::uint32_t>(i) * 2654435761u ^ seed;
      h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
      return static_cast<int>(h % static_cast<std::uint32_t>(2 * n));
    };
  };
  thrust::tabulate(a.begin(), a.end(), random_keys(1));
  thrust::tabulate(b.begin(), b.end(), random_keys(2));
  thrust::sort(a.begin(), a.end());
  thrust::sort(b.begin(), b.end());
  mergepath::cuda_context ctx;
  index_t tiles = mergepath::detail::ceil_div<index_t>(2 * n, t.tile_items());
  thrust::device_vector<index_t> parts(tiles + 1);
  const int* pa = a.data().get();
  const int* pb = b.data().get();
  int* po = a_out.data().get();
  auto partition = [&] {
    auto samples = mergepath::device::launch_merge_partition<bounds::lower, 1, t.partition_sample_bytes>(
        ctx, pa, n, pb, n, t.tile_items(), tiles + 1, parts.data().get(), mergepath::less<>{});
  };
  partition();
  constexpr auto tile_kernel =
      mergepath::kernel::sorted_search_tile_kernel<Policy, bounds::lower, search::index, search::none, const int*,
                                                   const int*, int*, std::nullptr_t, mergepath::less<>>;
  std::size_t shared =
      mergepath::kernel::search_layout_of<Policy, const int*, int*, std::nullptr_t, search::index, search::none>::bytes;
  int per_sm = mergepath::device::resident_blocks_per_sm<tile_kernel>(ctx, t.block_threads, shared);
  auto tile = [&] {
    mergepath::detail::launch("sorted_search_tile_kernel", tile_kernel, static_cast<unsigned>(tiles), t.block_threads,
                              shared, ctx.stream(), pa, n, pb, n, static_cast<const index_t*>(parts.data().get()), po,
                              nullptr, mergepath::kernel::match_totals{}, mergepath::less<>{});
  };
  auto lower = [&] {
    mergepath::sorted_search_tuned<Policy, bounds::lower, search::index, search::none>(ctx, pa, n, pb, n, po, nullptr);
  };
  auto complete = [&] {
    mergepath::sorted_search_tuned<Policy, bounds::lower, search::index_match, search::index_match>(
        ctx, pa, n, pb, n, po, b_out.data().get());
  };
  auto both_index = [&] {
    mergepath::sorted_search_tuned<Policy, bounds::lower, search::index, search::index>(ctx, pa, n, pb, n, po,
                                                                                        b_out.data().get());
  };
  // The complete search's tile kernel alone, with index and with index_match outputs.
  thrust::device_vector<unsigned long long> counters(mergepath::kernel::match_totals::words);
  const mergepath::kernel::match_totals totals{counters.data().get(), ctx.result_words().device};
  auto both_tile = [&](auto type) {
    constexpr search Type = decltype(type)::value;
    constexpr auto kernel = mergepath::kernel::sorted_search_tile_kernel<Policy, bounds::lower, Type, Type, const int*,
                                                                         const int*, int*, int*, mergepath::less<>>;
    constexpr std::size_t bytes =
        mergepath::kernel::search_layout_of<Policy, const int*, int*, int*, Type, Type>::bytes;
    (void)mergepath::device::resident_blocks_per_sm<kernel>(ctx, t.block_threads, bytes);
    mergepath::detail::launch("sorted_search_tile_kernel", kernel, static_cast<unsigned>(tiles), t.block_threads, bytes,
                              ctx.stream(), pa, n, pb, n, static_cast<const index_t*>(parts.data().get()), po,
                              b_out.data().get(), totals, mergepath::less<>{});
  };
  // The complete search's kernels back to back, nothing waited for: what the host's part costs.
  auto complete_kernels = [&] {
    partition();
    both_tile(std::integral_constant<search, search::index_match>{});
    mergepath::detail::launch("match_totals_kernel",
                              mergepath::kernel::match_totals_kernel<mergepath::kernel::match_totals::slots>, 1, 64, 0,
                              ctx.stream(), totals);
  };
  using index_type = std::integral_constant<search, search::index>;
  using index_match_type = std::integral_constant<search, search::index_match>;
  auto copy = [&] {  // the lower bound's bytes: 3n ints moved as 1.5n read and 1.5n written
    cudaMemcpyAsync(copy_out.data().get(), copy_in.data().get(), (n + n / 2) * sizeof(int), cudaMemcpyDeviceToDevice,
                    ctx.stream());
  };
  std::printf("{%d, %d, %d}: %d blocks per SM, n = %ld + %ld\n", t.block_threads, t.items_per_thread,
              t.min_resident_threads, per_sm, static_cast<long>(n), static_cast<long>(n));
  for (int calls : {1, 10}) {
    std::printf(
        "  calls %2d: lower bound %.1f us, partition %.1f us, tile kernel %.1f us, complete index_match %.1f us, "
        "copy %.1f us\n",
        calls, per_call_us(ctx.stream(), calls, lower), per_call_us(ctx.stream(), calls, partition),
        per_call_us(ctx.stream(), calls, tile), per_call_us(ctx.stream(), calls, complete),
        per_call_us(ctx.stream(), calls, copy));
    std::printf("            both sides: index %.1f us (tile kernel %.1f), index_match tile kernel %.1f us\n",
                per_call_us(ctx.stream(), calls, both_index),
                per_call_us(ctx.stream(), calls, [&] { both_tile(index_type{}); }),
                per_call_us(ctx.stream(), calls, [&] { both_tile(index_match_type{}); }));
    std::printf("            complete index_match's kernels alone %.1f us\n",
                per_call_us(ctx.stream(), calls, complete_kernels));
  }
  ctx.synchronize();
}

__global__ void store_word(volatile std::uint64_t* word, std::uint64_t value) { *word = value; }
__global__ void spin_for(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// How long the host waits for a one-thread kernel's result: through cudaStreamSynchronize, or by
// watching the mapped word it stores (cuda_context::wait_for_result_word). Medians of 201 calls.
void measure_wait() {
  mergepath::cuda_context ctx;
  std::uint64_t* word = ctx.result_words().device + 3;
  auto median_us = [&](auto&& wait) {
    std::vector<double> us;
    for (int r = 0; r < 201; ++r) {
      std::uint64_t value = ctx.next_result_sequence();
      auto start = std::chrono::steady_clock::now();
      store_word<<<1, 1, 0, ctx.stream()>>>(word, value);
      wait(value);
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
  };
  double synced = median_us([&](std::uint64_t) { ctx.synchronize(); });
  double watched = median_us([&](std::uint64_t value) { ctx.wait_for_result_word(3, value); });
  std::printf("launch + wait for one store: cudaStreamSynchronize %.1f us, watching the word %.1f us\n", synced,
              watched);
  spin_for<<<1, 1, 0, ctx.stream()>>>(10000000);
  cudaError_t query = cudaStreamQuery(ctx.stream());
  cudaError_t last = cudaGetLastError();
  std::printf("stream query while busy: %s; last error after it: %s\n", cudaGetErrorName(query),
              cudaGetErrorName(last));
  ctx.synchronize();
}

int main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  measure_wait();
  measure<mergepath::default_sorted_search_policy<int>>(n);
  if (argc > 2) return 0;  // the default shape only
  measure<shape<256, 27, 2048>>(n);
  measure<shape<256, 31, 2048>>(n);
  measure<shape<256, 27, 1536>>(n);
  measure<shape<192, 27, 1920>>(n);
  measure<shape<256, 29, 2048>>(n);
}
