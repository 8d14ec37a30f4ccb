// Where a merge's time goes between its launches: the median over reps of N back-to-back calls
// of the whole merge, of its partition pass alone and of its tile kernel alone (2^26 + 2^26
// int32 keys by default), timed with CUDA events like mergepath-bench.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler=-fopenmp -Iinclude scripts/probe_merge_time.cu -o probe_merge_time
#include <thrust/device_vector.h>
#include <thrust/sequence.h>

#include <cstdio>
#include <cstdlib>
#include <mergepath/mergepath.hpp>

#include "probe_timing.cuh"

using mergepath::index_t;
struct wide_policy {  // a larger tile: fewer splits for the partition pass
  static constexpr mergepath::merge_tuning tuning{384, 27, 1, false, 1536, 1, 2};
};

template <class policy>
void measure(const char* name, index_t n) {
  thrust::device_vector<int> a(n), b(n), out(2 * n), out2(2 * n);
  thrust::sequence(a.begin(), a.end(), 0, 2);
  thrust::sequence(b.begin(), b.end(), 1, 2);
  mergepath::cuda_context ctx;
  std::printf("%s, n = %ld + %ld int32 keys\n", name, static_cast<long>(n), static_cast<long>(n));
  constexpr mergepath::merge_tuning t = policy::tuning;
  index_t tiles = mergepath::detail::ceil_div<index_t>(2 * n, t.tile_items());
  thrust::device_vector<index_t> parts(tiles + 1);
  const int* pa = a.data().get();
  const int* pb = b.data().get();
  int* po = out.data().get();
  auto partition = [&] {
    auto samples = mergepath::device::launch_merge_partition<mergepath::bounds::lower, 1, t.partition_sample_bytes>(
        ctx, pa, n, pb, n, t.tile_items(), tiles + 1, parts.data().get(), mergepath::less<>{});
  };
  constexpr auto tile_kernel = mergepath::kernel::merge_tile_kernel<policy, const int*, mergepath::kernel::no_values,
                                                                    const int*, mergepath::kernel::no_values, int*,
                                                                    mergepath::kernel::no_values, mergepath::less<>>;
  std::size_t shared = mergepath::kernel::merge_layout_of<policy, const int*, mergepath::kernel::no_values>::bytes;
  mergepath::device::resident_blocks_per_sm<tile_kernel>(ctx, t.block_threads, shared);
  auto tile = [&] {
    mergepath::detail::launch("merge_tile_kernel", tile_kernel, static_cast<unsigned>(tiles), t.block_threads, shared,
                              ctx.stream(), pa, mergepath::kernel::no_values{}, pb, mergepath::kernel::no_values{},
                              2 * n, static_cast<const index_t*>(parts.data().get()), tiles, po,
                              mergepath::kernel::no_values{}, mergepath::less<>{});
  };
  auto merge = [&] { mergepath::merge_tuned<policy>(ctx, pa, n, pb, n, po); };
  auto copy = [&] {
    cudaMemcpyAsync(out2.data().get(), po, 2 * n * sizeof(int), cudaMemcpyDeviceToDevice, ctx.stream());
  };
  for (int calls : {1, 10}) {
    std::printf("calls %2d: merge %.1f us, partition %.1f us, tile kernel %.1f us, copy of the output %.1f us\n", calls,
                per_call_us(ctx.stream(), calls, merge), per_call_us(ctx.stream(), calls, partition),
                per_call_us(ctx.stream(), calls, tile), per_call_us(ctx.stream(), calls, copy));
  }
  ctx.synchronize();
}

int main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  measure<mergepath::default_merge_policy<int>>("default tuning", n);
  measure<wide_policy>("{384, 27}", n);
}
