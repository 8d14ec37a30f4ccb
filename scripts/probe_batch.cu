// Device probe for issue 6's open targets, int32, 2^26 random needles into 2^26 sorted keys:
// where batch_search's sorting path spends its time (and cheaper ways back to the needles' order),
// per-needle search variants (cache hints, one needle per thread, 32-bit indices), and an
// eytzinger_layout that writes each level's nodes as contiguous runs.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 --extended-lambda -Xcompiler=-fopenmp -Iinclude scripts/probe_batch.cu
#include <mergepath/mergepath.hpp>

#include <cub/device/device_radix_sort.cuh>
#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/random.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>
#include <cstdint>

#include "probe_search_inputs.cuh"
#include "probe_timing.cuh"

using mergepath::index_t;

// The library's scatter, with the bounds' writes streaming (evict-first) or not.
template <bool Streaming>
__global__ void scatter(const unsigned* bound, const unsigned* position, long n, int* out) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    if (Streaming)
      __stcs(out + __ldcs(position + i), static_cast<int>(__ldcs(bound + i)));
    else
      out[position[i]] = static_cast<int>(bound[i]);
  }
}

// Per-needle binary search: grid-stride or one needle per thread, 64- or 32-bit indices, plain or
// streaming needles and bounds.
template <class Index, bool Streaming, bool GridStride>
__global__ void binary(const int* needles, long n, const int* hay, long m, int* out) {
  long first = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long stride = GridStride ? (long)gridDim.x * blockDim.x : n;
  for (long i = first; i < n; i += stride) {
    int x = Streaming ? __ldcs(needles + i) : needles[i];
    Index base = 0, count = static_cast<Index>(m);
    while (count > 0) {
      Index half = count / 2;
      bool past = hay[base + half] < x;
      base = past ? base + half + 1 : base;
      count = past ? count - half - 1 : half;
    }
    if (Streaming)
      __stcs(out + i, static_cast<int>(base));
    else
      out[i] = static_cast<int>(base);
  }
}

template <class Index, bool Streaming, int CachedSlots>
__global__ void eytzinger(const int* needles, long n, const int* tree, long count, long cached, int* out) {
  __shared__ int top[CachedSlots];
  for (long k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const mergepath::eytzinger_shape shape(count);
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    int x = Streaming ? __ldcs(needles + i) : needles[i];
    Index k = 1;
    while (k <= cached) k = 2 * k + (top[k - 1] < x);
    while (k <= count) k = 2 * k + (tree[k - 1] < x);
    k >>= __ffsll(~static_cast<long long>(k));
    int r = k == 0 ? static_cast<int>(count) : static_cast<int>(shape.sorted_index(k));
    if (Streaming)
      __stcs(out + i, r);
    else
      out[i] = r;
  }
}

// The first j >= 0 with (2j + 1) * 2^b - 1 >= lo.
__device__ long first_on_level(long lo, int b) {
  long t = lo + 1 - (1l << b);
  return t <= 0 ? 0 : (t + (1l << (b + 1)) - 1) >> (b + 1);
}

// Eytzinger layout, level by level: the block's keys in shared memory, then for each level its
// nodes (a contiguous run of the level) written by consecutive threads.
template <int Items>
__global__ void layout_levels(const int* sorted, long n, int* tree) {
  __shared__ int keys[Items];
  const mergepath::eytzinger_shape shape(n);
  const long begin = blockIdx.x * (long)Items;
  const long end = begin + Items < n ? begin + Items : n;
  for (long i = begin + threadIdx.x; i < end; i += blockDim.x) keys[i - begin] = sorted[i];
  __syncthreads();
  const long m = shape.last_level;
  for (int b = 0; b < shape.height; ++b) {
    const long level_first = 1l << (shape.height - 1 - b);  // node of in_level 0
    // Sorted positions below 2m: i = (2j + 1) 2^b - 1.
    long lo = begin, hi = end < 2 * m ? end : 2 * m;
    if (lo < hi) {
      long j0 = first_on_level(lo, b), j1 = first_on_level(hi, b);
      for (long j = j0 + threadIdx.x; j < j1; j += blockDim.x)
        tree[level_first + j - 1] = keys[((2 * j + 1) << b) - 1 - begin];
    }
    // From 2m on (only levels above the last): i = m + (2j + 1) 2^(b-1) - 1.
    lo = begin > 2 * m ? begin : 2 * m, hi = end;
    if (b >= 1 && lo < hi) {
      long j0 = first_on_level(lo - m, b - 1), j1 = first_on_level(hi - m, b - 1);
      for (long j = j0 + threadIdx.x; j < j1; j += blockDim.x)
        tree[level_first + j - 1] = keys[m + ((2 * j + 1) << (b - 1)) - 1 - begin];
    }
  }
}

int main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  cudaStream_t s = 0;
  thrust::device_vector<int> needles(n), hay(n), out(n), ref(n), tree(n), tree2(n);
  make_search_inputs(needles, hay);
  const int* nd = needles.data().get();
  const int* hy = hay.data().get();
  int* o = out.data().get();
  mergepath::cuda_context ctx(s);
  auto check = [&](const char* what) {
    cudaDeviceSynchronize();
    std::printf("  %-40s %s\n", what, out == ref ? "ok" : "MISMATCH");
    thrust::fill(out.begin(), out.end(), -1);
  };
  auto report = [&](const char* what, double us) { std::printf("%-52s %9.1f us\n", what, us); };
  report("copy (needles -> out)", per_call_us(s, 3, [&] { cudaMemcpyAsync(o, nd, n * 4, cudaMemcpyDeviceToDevice, s); }));
  report("thrust::lower_bound", per_call_us(s, 1, [&] {
           thrust::lower_bound(thrust::cuda::par.on(s), hay.begin(), hay.end(), needles.begin(), needles.end(), ref.begin());
         }));
  report("batch_search sort_then_search", per_call_us(s, 1, [&] {
           mergepath::batch_search(ctx, nd, n, hy, n, o, mergepath::less<>{}, mergepath::search_strategy::sort_then_search);
         }));
  check("batch_search");

  // The sorting path's pieces.
  thrust::device_vector<int> keys(n), keys_alt(n);
  thrust::device_vector<unsigned> pos(n), pos_alt(n), bound(n), bound_alt(n);
  int* k0 = keys.data().get();
  int* k1 = keys_alt.data().get();
  unsigned* p0 = pos.data().get();
  unsigned* p1 = pos_alt.data().get();
  unsigned* b0 = bound.data().get();
  unsigned* b1 = bound_alt.data().get();
  const unsigned grid = 132 * 16;
  report("  copy_kernel needles", per_call_us(s, 1, [&] {
           mergepath::kernel::copy_kernel<<<grid, 256, 0, s>>>(nd, n, k0);
         }));
  report("  iota_kernel positions", per_call_us(s, 1, [&] { mergepath::kernel::iota_kernel<<<grid, 256, 0, s>>>(p0, n); }));
  std::size_t temp_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, nd, k1, p0, p1, n, 0, 32, s);
  std::size_t temp_bytes2 = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes2, p1, p0, b0, b1, n, 0, 32, s);
  thrust::device_vector<char> temp(std::max(temp_bytes, temp_bytes2));
  void* t = temp.data().get();
  report("  radix SortPairs (needle, position), 32 bits", per_call_us(s, 1, [&] {
           std::size_t b = temp.size();
           cub::DeviceRadixSort::SortPairs(t, b, nd, k1, p0, p1, n, 0, 32, s);
         }));
  report("  sorted_search", per_call_us(s, 1, [&] { mergepath::sorted_search(ctx, k1, n, hy, n, b0); }));
  report("  scatter (library)", per_call_us(s, 1, [&] { scatter<false><<<grid, 256, 0, s>>>(b0, p1, n, o); }));
  check("pieces, scatter");
  report("  scatter, streaming hints", per_call_us(s, 1, [&] { scatter<true><<<grid, 256, 0, s>>>(b0, p1, n, o); }));
  check("pieces, streaming scatter");
  // Back to the needles' order: sort (position, bound) by the position's top bits, then scatter.
  const int bits = mergepath::detail::highest_bit(static_cast<std::uint64_t>(n - 1)) + 1;
  for (int low : {bits - 8, bits - 10, bits - 16, 0}) {
    char name[96];
    std::snprintf(name, sizeof name, "  unsort: radix by position bits [%d, %d) + scatter", low, bits);
    report(name, per_call_us(s, 1, [&] {
             std::size_t b = temp.size();
             cub::DeviceRadixSort::SortPairs(t, b, p1, p0, b0, b1, n, low, bits, s);
             scatter<false><<<grid, 256, 0, s>>>(b1, p0, n, o);
           }));
    check(name);
  }

  // Per-needle searches.
  report("binary (library)", per_call_us(s, 1, [&] { mergepath::binary_search(ctx, nd, n, hy, n, o); }));
  check("binary library");
  report("binary 64-bit, grid-stride", per_call_us(s, 1, [&] { binary<long, false, true><<<grid, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary 64");
  report("binary 32-bit, grid-stride", per_call_us(s, 1, [&] { binary<int, false, true><<<grid, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary 32");
  report("binary 32-bit, streaming", per_call_us(s, 1, [&] { binary<int, true, true><<<grid, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary 32 streaming");
  report("binary 64-bit, streaming", per_call_us(s, 1, [&] { binary<long, true, true><<<grid, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary 64 streaming");
  const unsigned full = static_cast<unsigned>((n + 255) / 256);
  report("binary 64-bit, thread per needle", per_call_us(s, 1, [&] { binary<long, false, false><<<full, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary thread per needle");
  report("binary 32-bit, thread per needle, streaming", per_call_us(s, 1, [&] { binary<int, true, false><<<full, 256, 0, s>>>(nd, n, hy, n, o); }));
  check("binary 32 thread per needle streaming");

  // Layouts.
  int* tr = tree.data().get();
  int* tr2 = tree2.data().get();
  report("eytzinger_layout (library)", per_call_us(s, 3, [&] { mergepath::eytzinger_layout(ctx, hy, n, tr); }));
  report("layout by levels, 8192 keys a block", per_call_us(s, 3, [&] {
           layout_levels<8192><<<static_cast<unsigned>((n + 8191) / 8192), 256, 0, s>>>(hy, n, tr2);
         }));
  cudaDeviceSynchronize();
  std::printf("  %-40s %s\n", "layout by levels == library", tree == tree2 ? "ok" : "MISMATCH");
  report("layout by levels, 4096 keys a block", per_call_us(s, 3, [&] {
           layout_levels<4096><<<static_cast<unsigned>((n + 4095) / 4096), 256, 0, s>>>(hy, n, tr2);
         }));
  report("layout by levels, 8192 keys, 512 threads", per_call_us(s, 3, [&] {
           layout_levels<8192><<<static_cast<unsigned>((n + 8191) / 8192), 512, 0, s>>>(hy, n, tr2);
         }));
  for (long odd : {n - 1, n / 2 + 12345, 1000l, 1l, 2l, 3l}) {
    mergepath::eytzinger_layout(ctx, hy, odd, tr);
    layout_levels<8192><<<static_cast<unsigned>((odd + 8191) / 8192), 256, 0, s>>>(hy, odd, tr2);
    cudaDeviceSynchronize();
    bool same = thrust::equal(tree.begin(), tree.begin() + odd, tree2.begin());
    std::printf("  layout by levels, count %ld: %s\n", odd, same ? "ok" : "MISMATCH");
  }
  mergepath::eytzinger_layout(ctx, hy, n, tr);

  report("eytzinger_search (library)", per_call_us(s, 1, [&] { mergepath::eytzinger_search(ctx, nd, n, tr, n, o); }));
  check("eytzinger library");
  const unsigned egrid = 132 * 4;
  report("eytzinger 64-bit, 13 levels", per_call_us(s, 1, [&] { eytzinger<long, false, 8192><<<egrid, 512, 0, s>>>(nd, n, tr, n, 8191, o); }));
  check("eytzinger 64");
  report("eytzinger 32-bit, 13 levels", per_call_us(s, 1, [&] { eytzinger<int, false, 8192><<<egrid, 512, 0, s>>>(nd, n, tr, n, 8191, o); }));
  check("eytzinger 32");
  report("eytzinger 64-bit, 13 levels, streaming", per_call_us(s, 1, [&] { eytzinger<long, true, 8192><<<egrid, 512, 0, s>>>(nd, n, tr, n, 8191, o); }));
  check("eytzinger 64 streaming");
  report("eytzinger 32-bit, 13 levels, streaming", per_call_us(s, 1, [&] { eytzinger<int, true, 8192><<<egrid, 512, 0, s>>>(nd, n, tr, n, 8191, o); }));
  check("eytzinger 32 streaming");
  report("eytzinger 32-bit, 12 levels, streaming, 256 thr", per_call_us(s, 1, [&] { eytzinger<int, true, 4096><<<132 * 8, 256, 0, s>>>(nd, n, tr, n, 4095, o); }));
  check("eytzinger 32 streaming 12");
  return 0;
}
