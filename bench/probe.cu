// mergepath-probe: the experiments the design notes (docs/design/) cite, one named case each, in one harness.
//
//   mergepath-probe --list
//   mergepath-probe --case merge_time [N [CALLS]]       # the arguments after the case are its own
//   ncu ... -k regex:merge mergepath-probe --case merge 67108864 1
//
// Unlike mergepath-bench (tables beside CUB and Thrust, every result checked, L2 rotation), a case
// times one question quickly, often with kernels of its own (other tile designs, cache hints) or
// as a fixed workload for a profiler; the design notes say which case gave which figure. Timing comes
// from bench_util.cuh (per_call_us, median_ms), as when the figures were taken. Each case lives
// in its own namespace, its arguments as they were: argv[1] is its first.
#include <mergepath/block/group_multiway_split.cuh>
#include <mergepath/mergepath.hpp>
#include <mergepath/thread/multiway_split.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_merge.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <iostream>
#include <random>
#include <string>
#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/equal.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/random.h>
#include <thrust/sequence.h>
#include <thrust/set_operations.h>
#include <thrust/sort.h>
#include <thrust/tabulate.h>
#include <thrust/transform.h>
#include <vector>

#include "bench_util.cuh"

using bench::median_ms;
using bench::per_call_us;

// Inputs shared by the search cases: n random int32 needles (uniform over int32) and n sorted
// random int32 keys, the same for every case and run.
struct random_int {
  __host__ __device__ int operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 977u));
    return static_cast<int>(rng() ^ (rng() << 16));
  }
};

inline void make_search_inputs(thrust::device_vector<int>& needles, thrust::device_vector<int>& haystack) {
  const unsigned long long n = needles.size(), m = haystack.size();
  thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                    needles.begin(), random_int{});
  thrust::transform(thrust::counting_iterator<unsigned long long>(n),
                    thrust::counting_iterator<unsigned long long>(n + m), haystack.begin(), random_int{});
  thrust::sort(haystack.begin(), haystack.end());
}

// ==== case batch (was scripts/probe_batch.cu) =========================================
// Device probe for issue 6's open targets, int32, 2^26 random needles into 2^26 sorted keys:
// where batch_search's sorting path spends its time (and cheaper ways back to the needles' order),
// per-needle search variants (cache hints, one needle per thread, 32-bit indices), and an
// eytzinger_layout that writes each level's nodes as contiguous runs.
namespace probe_batch {

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

int probe_main(int argc, char** argv) {
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

}  // namespace probe_batch

// ==== case merge (was scripts/probe_merge.cu) =========================================
// A fixed workload for profilers (ncu): merge and merge_pairs of 2^26 + 2^26 int32, a few times.
namespace probe_merge {

struct random_key {
  __host__ __device__ int operator()(unsigned i) const {
    thrust::default_random_engine rng(i * 2654435761u + 12345u);
    return static_cast<int>(rng());
  }
};

int probe_main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  thrust::device_vector<int> a(n), b(n), out(2 * n), av(n), bv(n), outv(2 * n);
  thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n), a.begin(), random_key{});
  thrust::transform(thrust::counting_iterator<unsigned>(n), thrust::counting_iterator<unsigned>(2 * n), b.begin(), random_key{});
  if (const char* d = std::getenv("PROBE_DISTINCT_KEYS")) {  // keys below d: few distinct
    const int distinct = std::atoi(d);
    auto below = [distinct] __device__(int k) { return static_cast<int>(static_cast<unsigned>(k) % distinct); };
    thrust::transform(a.begin(), a.end(), a.begin(), below);
    thrust::transform(b.begin(), b.end(), b.begin(), below);
  }
  thrust::sort(a.begin(), a.end());
  thrust::sort(b.begin(), b.end());
  thrust::sequence(av.begin(), av.end());
  thrust::sequence(bv.begin(), bv.end());
  if (const char* g = std::getenv("PROBE_L2_FETCH_BYTES")) {  // experiment: L2 over-fetch on random loads
    MERGEPATH_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, std::atoi(g)));
    std::size_t v = 0;
    MERGEPATH_CUDA_CHECK(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
    std::printf("probe: L2 fetch granularity %zu bytes\n", v);
  }
  mergepath::cuda_context ctx;
  for (int r = 0; r < reps; ++r) {
    mergepath::merge(ctx, a.data().get(), n, b.data().get(), n, out.data().get());
    mergepath::merge_pairs(ctx, a.data().get(), av.data().get(), n, b.data().get(), bv.data().get(), n,
                           out.data().get(), outv.data().get());
  }
  ctx.synchronize();
  std::vector<int> h(2 * n);
  thrust::copy(out.begin(), out.end(), h.begin());
  for (long i = 1; i < 2 * n; ++i)
    if (h[i] < h[i - 1]) { std::printf("probe: NOT SORTED at %ld\n", i); return 1; }
  std::printf("probe: ok\n");
  return 0;
}

}  // namespace probe_merge

// ==== case merge4 (was scripts/probe_merge4.cu) =======================================
// Probe: mergesort with four-way merge passes, two tile designs side by side (docs/design/merge-and-mergesort.md).
// Blocksort as the library's, then passes that merge groups of four runs: the library's partition
// kernel (mergesort_partition4_kernel, four lanes per split) and one of two tile kernels:
//  - rounds: the four pieces in shared memory, 0+1 and 2+3 merged there, then the two results
//    (what the library's mergesort_merge4_kernel does);
//  - direct: every thread finds its own four-way split in shared memory and merges its outputs
//    from the four pieces at once (one shared-memory read per output; lost by far).
// PROBE_CHECK=1 compares every pass's splits with the one-thread selection (multiway_split);
// PROBE_ONLY=k runs the k-th configuration alone (for ncu).
namespace probe_merge4 {

using mergepath::index_t;
namespace mk = mergepath::kernel;
namespace mb = mergepath::block;
namespace md = mergepath::detail;

struct random_key {
  __host__ __device__ int operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 12345u));
    return static_cast<int>(rng() ^ (rng() << 16));
  }
};

// Groups of four runs of `width` keys (the last group and run may be shorter), each group's
// output cut into tiles of tile_items.
struct merge4_pass {
  index_t count, width, tiles_per_group;
  int tile_items;
  __host__ __device__ index_t num_tiles() const {
    index_t group_items = 4 * width;
    index_t full = count / group_items;
    return full * tiles_per_group + md::ceil_div(count - full * group_items, index_t{tile_items});
  }
};

struct merge4_tile {
  index_t begin[4], count[4];  // the group's runs
  index_t diag0, diag1, total;
  __host__ __device__ merge4_tile(const merge4_pass& pass, index_t tile) {
    index_t group = tile / pass.tiles_per_group;
    total = 0;
    for (int r = 0; r < 4; ++r) {
      begin[r] = group * 4 * pass.width + r * pass.width;
      count[r] = md::max_of<index_t>(0, md::min_of(pass.width, pass.count - begin[r]));
      total += count[r];
    }
    diag0 = (tile - group * pass.tiles_per_group) * pass.tile_items;
    diag1 = md::min_of(diag0 + pass.tile_items, total);
  }
};

__global__ void merge4_partition_kernel(const int* keys, merge4_pass pass, index_t* splits) {
  md::allow_dependent_launch();
  md::wait_for_prior_grid();
  index_t tile = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  if (tile >= pass.num_tiles()) return;
  merge4_tile t(pass, tile);
  const int* seqs[4] = {keys + t.begin[0], keys + t.begin[1], keys + t.begin[2], keys + t.begin[3]};
  index_t out[4];
  mergepath::multiway_split<4>(seqs, t.count, t.diag0, out, mergepath::less<>{});
  for (int r = 0; r < 4; ++r) splits[4 * tile + r] = out[r];
}

// Loads the tile's four pieces into shared memory, each at a position that agrees with its
// global address modulo 16 bytes. pos[r], n[r]: where piece r lies and how long it is.
template <int Threads, int TileItems>
__device__ void load_pieces(const int* in, const merge4_tile& t, const index_t* splits, index_t tile, int* segments,
                            int (&pos)[4], int (&n)[4]) {
  const bool last_in_group = t.diag1 == t.total;
  int at = 0;
  MERGEPATH_UNROLL
  for (int r = 0; r < 4; ++r) {
    index_t s0 = splits[4 * tile + r];
    index_t s1 = last_in_group ? t.count[r] : splits[4 * tile + 4 + r];
    n[r] = static_cast<int>(s1 - s0);
    const int* from = in + t.begin[r] + s0;
    int residue = mb::address_residue<int>(from);
    int p = (at + 3) / 4 * 4 + residue;
    if (p < at) p += 4;
    pos[r] = p;
    mb::copy_run_to_shared<Threads, TileItems>(from, n[r], segments, p);
    at = p + n[r];
  }
  mb::commit_copies();
  mb::wait_for_copies<0>();
  __syncthreads();
}

// The kernels' start: wait for the partition, then load this block's tile.
template <int Threads, int TileItems>
__device__ merge4_tile load_tile(const int* in, const merge4_pass& pass, const index_t* splits, int* segments,
                                 int (&pos)[4], int (&n)[4]) {
  md::allow_dependent_launch();
  md::wait_for_prior_grid();
  const merge4_tile t(pass, blockIdx.x);
  load_pieces<Threads, TileItems>(in, t, splits, blockIdx.x, segments, pos, n);
  return t;
}

// ---- rounds: 0+1 and 2+3 in shared memory, then the two results ----
template <int Threads, int Items>
struct rounds_shape {
  static constexpr int tile_items = (Threads - 1) * Items;  // level one needs a thread of slack
  static constexpr int segments_slots = tile_items + 4 * 8 + Items + 1;
  static constexpr int merged_slots = Threads * Items + Items + 1;
  static constexpr std::size_t bytes = sizeof(int) * (segments_slots + merged_slots);
};

template <int Threads, int Items, int Resident>
__global__ void __launch_bounds__(Threads, Resident / Threads)
    rounds_tile_kernel(const int* in, merge4_pass pass, const index_t* splits, int* out) {
  using shape = rounds_shape<Threads, Items>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  int* segments = reinterpret_cast<int*>(shared_bytes);
  int* merged = segments + shape::segments_slots;
  mergepath::less<> comp;
  int pos[4], n[4];
  const merge4_tile t = load_tile<Threads, shape::tile_items>(in, pass, splits, segments, pos, n);
  const int nx = n[0] + n[1], ny = n[2] + n[3];
  const int x_threads = md::ceil_div(nx, Items);
  const int y_base = x_threads * Items;
  {
    int r = threadIdx.x < x_threads ? 0 : 2;
    int diag = threadIdx.x < x_threads ? threadIdx.x * Items : (threadIdx.x - x_threads) * Items;
    int length = n[r] + n[r + 1];
    if (diag < length) {
      int a_split = mergepath::merge_path(segments + pos[r], n[r], segments + pos[r + 1], n[r + 1], diag, comp);
      int keys_out[Items], source[Items];
      mergepath::serial_merge_n<Items>(segments, pos[r] + a_split, pos[r] + n[r], pos[r + 1] + diag - a_split,
                                       pos[r + 1] + n[r + 1], keys_out, source, comp);
      int* to = merged + (r == 0 ? 0 : y_base) + diag;
      MERGEPATH_UNROLL
      for (int k = 0; k < Items; ++k) to[k] = keys_out[k];
    }
  }
  __syncthreads();
  const int count = nx + ny;
  int diag = md::min_of(static_cast<int>(threadIdx.x) * Items, count);
  int a_split = mergepath::merge_path(merged, nx, merged + y_base, ny, diag, comp);
  int keys_out[Items], source[Items];
  mergepath::serial_merge_n<Items>(merged, a_split, nx, y_base + diag - a_split, y_base + ny, keys_out, source, comp);
  mb::store_blocked_to_shared(keys_out, segments);
  __syncthreads();
  mb::store_shared_to_global<Threads, Items>(segments, count, out + (t.begin[0] + t.diag0));
}

// ---- direct: every thread's own four-way split, then a four-way serial merge ----
// The next Count outputs of the stable merge of keys[begin[s], end[s]), s = 0..K-1 (runs of one
// array in order): one read per output, of the run whose head was taken.
template <int Count, int K, class It, class T, class Comp>
__device__ void serial_multiway_merge_n(It keys, const int (&begin)[K], const int (&end)[K], T (&out)[Count],
                                        int (&source)[Count], Comp comp) {
  int at[K];
  T head[K];
  MERGEPATH_UNROLL
  for (int s = 0; s < K; ++s) {
    at[s] = begin[s];
    head[s] = at[s] < end[s] ? keys[at[s]] : T{};
  }
  MERGEPATH_UNROLL
  for (int k = 0; k < Count; ++k) {
    int best = -1, from = at[0];
    T value = head[0];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (at[s] < end[s] && (best < 0 || comp(head[s], value))) best = s, value = head[s], from = at[s];
    out[k] = value;
    source[k] = from;
    const int next = from + 1;
    bool more = false;
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (s == best) more = next < end[s];
    T loaded = value;
    if (more) loaded = keys[next];
    MERGEPATH_UNROLL
    for (int s = 0; s < K; ++s)
      if (s == best) at[s] = next, head[s] = loaded;
  }
}

template <int Threads, int Items>
struct direct_shape {
  static constexpr int tile_items = Threads * Items;
  static constexpr std::size_t bytes = sizeof(int) * (tile_items + 4 * 4);
};

template <int Threads, int Items, int Resident>
__global__ void __launch_bounds__(Threads, Resident / Threads)
    direct_tile_kernel(const int* in, merge4_pass pass, const index_t* splits, int* out) {
  using shape = direct_shape<Threads, Items>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  int* keys = reinterpret_cast<int*>(shared_bytes);
  mergepath::less<> comp;
  int pos[4], n[4];
  const merge4_tile t = load_tile<Threads, shape::tile_items>(in, pass, splits, keys, pos, n);
  const int count = n[0] + n[1] + n[2] + n[3];
  const int diag = md::min_of(static_cast<int>(threadIdx.x) * Items, count);
  const int* seqs[4] = {keys + pos[0], keys + pos[1], keys + pos[2], keys + pos[3]};
  int split[4];
  mergepath::multiway_split<4>(seqs, n, diag, split, comp);
  int begin[4], end[4];
  MERGEPATH_UNROLL
  for (int r = 0; r < 4; ++r) begin[r] = pos[r] + split[r], end[r] = pos[r] + n[r];
  int merged[Items], source[Items];
  serial_multiway_merge_n<Items>(keys, begin, end, merged, source, comp);
  __syncthreads();
  mb::store_blocked_to_shared(merged, keys);
  __syncthreads();
  mb::store_shared_to_global<Threads, Items>(keys, count, out + (t.begin[0] + t.diag0));
}

static int config_index = 0;

template <bool Direct, int Threads, int Items, int Resident = 1024>
void run(index_t n, int reps) {
  // PROBE_ONLY=k runs the k-th configuration alone (for ncu).
  const char* only = std::getenv("PROBE_ONLY");
  if (only && std::atoi(only) != config_index++) return;
  using Policy = mergepath::default_mergesort_policy<int>;
  constexpr int tile_items = Direct ? direct_shape<Threads, Items>::tile_items : rounds_shape<Threads, Items>::tile_items;
  constexpr std::size_t tile_bytes = Direct ? direct_shape<Threads, Items>::bytes : rounds_shape<Threads, Items>::bytes;
  constexpr auto tile_kernel = Direct ? direct_tile_kernel<Threads, Items, Resident> : rounds_tile_kernel<Threads, Items, Resident>;
  constexpr mergepath::mergesort_tuning tuning = Policy::tuning;
  constexpr index_t sort_tile = tuning.blocksort.tile_items();
  thrust::device_vector<int> input(n), buf0(n), buf1(n), ref(n);
  thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                    input.begin(), random_key{});
  ref = input;
  thrust::sort(ref.begin(), ref.end());
  mergepath::cuda_context ctx(cudaStream_t{0});
  int* b0 = buf0.data().get();
  int* b1 = buf1.data().get();
  const index_t sort_tiles = md::ceil_div(n, sort_tile);
  const index_t max_tiles = n / tile_items + n / (4 * sort_tile) + 64;  // each group ends with a partial tile
  thrust::device_vector<index_t> splits(4 * max_tiles), splits_ref(4 * max_tiles);
  thrust::device_vector<index_t> partitions(n / tuning.merge.tile_items() + 64);
  int* result = nullptr;
  cudaFuncSetAttribute(tile_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(tile_bytes));
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0), cudaEventCreate(&e1), cudaEventCreate(&e2);
  double partition_us = 0, tile_us = 0;
  auto sort4 = [&](bool timed_parts) {
    constexpr auto sort_kernel = mk::blocksort_kernel<Policy, int*, mk::no_values, int*, mk::no_values, mergepath::less<>>;
    constexpr std::size_t sort_bytes = mk::blocksort_layout<Policy, int*, mk::no_values>::bytes;
    (void)mergepath::device::resident_blocks_per_sm<sort_kernel>(ctx, tuning.blocksort.block_threads, sort_bytes);
    md::launch_dependent("blocksort", sort_kernel, static_cast<unsigned>(sort_tiles), tuning.blocksort.block_threads,
                         sort_bytes, ctx.stream(), b0, mk::no_values{}, n, b0, mk::no_values{}, mergepath::less<>{});
    int* from = b0;
    int* to = b1;
    index_t width = sort_tile;
    while (width < n) {
      if (2 * width < n) {  // more than two runs: a four-way pass
        merge4_pass pass{n, width, md::ceil_div<index_t>(4 * width, tile_items), tile_items};
        index_t tiles = pass.num_tiles();
        if (timed_parts) cudaEventRecord(e0);
        // The library's four-lane partition kernel, 32-bit arithmetic.
        md::launch_dependent("merge4_group_partition",
                             mk::mergesort_partition4_kernel<const int*, int, mergepath::less<>>,
                             static_cast<unsigned>(md::ceil_div<index_t>(4 * tiles, 128)), 128, 0, ctx.stream(),
                             static_cast<const int*>(from),
                             mk::merge4_pass{pass.count, pass.width, pass.tiles_per_group, pass.tile_items},
                             splits.data().get(), mergepath::less<>{});
        if (timed_parts) cudaEventRecord(e1);
        if (timed_parts && std::getenv("PROBE_CHECK")) {  // against the one-thread selection
          md::launch_dependent("merge4_partition", merge4_partition_kernel,
                               static_cast<unsigned>(md::ceil_div<index_t>(tiles, 128)), 128, 0, ctx.stream(),
                               static_cast<const int*>(from), pass, splits_ref.data().get());
          cudaDeviceSynchronize();
          std::vector<index_t> got(4 * tiles), want(4 * tiles);
          thrust::copy(splits.begin(), splits.begin() + 4 * tiles, got.begin());
          thrust::copy(splits_ref.begin(), splits_ref.begin() + 4 * tiles, want.begin());
          for (index_t i = 0; i < 4 * tiles; ++i)
            if (got[i] != want[i]) {
              std::printf("    SPLITS DIFFER at tile %ld run %d: %ld vs %ld\n", long(i / 4), int(i % 4), long(got[i]),
                          long(want[i]));
              break;
            }
          cudaEventRecord(e1);
        }
        md::launch_dependent("merge4_tile", tile_kernel, static_cast<unsigned>(tiles), Threads, tile_bytes,
                             ctx.stream(), static_cast<const int*>(from), pass,
                             static_cast<const index_t*>(splits.data().get()), to);
        if (timed_parts) {
          cudaEventRecord(e2);
          cudaEventSynchronize(e2);
          float p = 0, k = 0;
          cudaEventElapsedTime(&p, e0, e1), cudaEventElapsedTime(&k, e1, e2);
          partition_us += 1000 * p, tile_us += 1000 * k;
          std::printf("    width %9ld: partition %6.1f us, tiles %6.1f us\n", static_cast<long>(width), 1000 * p,
                      1000 * k);
        }
        width *= 4;
      } else {  // two runs left
        mk::merge_pass pass{n, width, md::ceil_div<index_t>(2 * width, tuning.merge.tile_items()),
                            tuning.merge.tile_items()};
        index_t tiles = pass.num_tiles();
        md::launch_dependent("partition", mk::mergesort_partition_kernel<int*, mergepath::less<>>,
                             static_cast<unsigned>(md::ceil_div<index_t>(tiles, 128)), 128, 0, ctx.stream(), from,
                             pass, -1, static_cast<const uint4*>(nullptr), partitions.data().get(),
                             ctx.split_repair_ticket(), mergepath::less<>{});
        constexpr auto merge_kernel =
            mk::mergesort_merge_kernel<Policy, int*, mk::no_values, int*, mk::no_values, mergepath::less<>>;
        constexpr std::size_t bytes = mk::merge_layout_of<mk::merge_pass_policy<Policy>, int*, mk::no_values>::bytes;
        (void)mergepath::device::resident_blocks_per_sm<merge_kernel>(ctx, tuning.merge.block_threads, bytes);
        md::launch_dependent("merge", merge_kernel, static_cast<unsigned>(tiles), tuning.merge.block_threads, bytes,
                             ctx.stream(), from, mk::no_values{}, pass, static_cast<const index_t*>(partitions.data().get()),
                             to, mk::no_values{}, mergepath::less<>{});
        width *= 2;
      }
      std::swap(from, to);
    }
    result = from;
  };
  auto reset = [&] { thrust::copy(input.begin(), input.end(), buf0.begin()); };
  int occupancy = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occupancy, tile_kernel, Threads, tile_bytes);
  std::printf("--- n = %ld, %s tiles %d x %d @%d (%d keys, %zu B, %d blocks/SM), blocksort %d keys\n",
              static_cast<long>(n), Direct ? "direct" : "rounds", Threads, Items, Resident, tile_items, tile_bytes, occupancy,
              static_cast<int>(sort_tile));
  if (std::getenv("PROBE_CHECK")) {  // the timed pass first: it checks the splits
    reset();
    sort4(true);
  }
  float four = median_ms(reps, reset, [&] { sort4(false); });
  cudaError_t err = cudaDeviceSynchronize();
  bool ok = err == cudaSuccess &&
            thrust::equal(thrust::device_pointer_cast(result), thrust::device_pointer_cast(result) + n, ref.begin());
  reset();
  sort4(true);
  std::printf("  four-way mergesort %.3f ms %s (%s); partitions %.1f us, tiles %.1f us in all\n", four,
              ok ? "ok" : "MISMATCH", cudaGetErrorString(err), partition_us, tile_us);
}


int probe_main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (!std::getenv("PROBE_ONLY")) {
    thrust::device_vector<int> input(n), keys(n);
    thrust::transform(thrust::counting_iterator<unsigned long long>(0),
                      thrust::counting_iterator<unsigned long long>(n), input.begin(), random_key{});
    mergepath::cuda_context ctx(cudaStream_t{0});
    auto reset = [&] { thrust::copy(input.begin(), input.end(), keys.begin()); };
    float lib = median_ms(reps, reset, [&] { mergepath::mergesort(ctx, keys.data().get(), n); });
    std::size_t temp_bytes = 0;
    cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, keys.data().get(), n, mergepath::less<>{});
    thrust::device_vector<char> temp(temp_bytes);
    float cub = median_ms(reps, reset, [&] {
      std::size_t bytes = temp_bytes;
      cub::DeviceMergeSort::StableSortKeys(temp.data().get(), bytes, keys.data().get(), n, mergepath::less<>{});
    });
    std::printf("n = %ld: mergepath::mergesort %.3f ms, CUB %.3f ms (%.2fx)\n", static_cast<long>(n), lib, cub,
                cub / lib);
  }
  run<false, 128, 23, 1536>(n, reps);
  run<false, 128, 15, 1536>(n, reps);
  run<false, 256, 23, 1536>(n, reps);
  run<true, 256, 23>(n, reps);  // direct: ~900 us a pass
  return 0;
}

}  // namespace probe_merge4

// ==== case merge_time (was scripts/probe_merge_time.cu) ===============================
// Where a merge's time goes between its launches: the median over reps of N back-to-back calls
// of the whole merge, of its partition pass alone and of its tile kernel alone (2^26 + 2^26
// int32 keys by default), timed with CUDA events like mergepath-bench.
namespace probe_merge_time {

using mergepath::index_t;
struct wide_policy {  // a larger tile: fewer splits for the partition pass
  static constexpr mergepath::merge_tuning tuning{384, 27, 1, false, 1536, 1, 2};
};

struct key_below {  // a random key in [0, limit)
  unsigned limit;
  __host__ __device__ int operator()(unsigned i) const {
    thrust::default_random_engine rng(i * 2654435761u + 12345u);
    return static_cast<int>(rng() % limit);
  }
};

// distinct_keys == 0: a = the even numbers, b = the odd ones; else both random in [0, distinct_keys).
template <class policy>
void measure(const char* name, index_t n, unsigned distinct_keys) {
  thrust::device_vector<int> a(n), b(n), out(2 * n), out2(2 * n);
  if (distinct_keys == 0) {
    thrust::sequence(a.begin(), a.end(), 0, 2);
    thrust::sequence(b.begin(), b.end(), 1, 2);
  } else {
    thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n), a.begin(),
                      key_below{distinct_keys});
    thrust::transform(thrust::counting_iterator<unsigned>(n), thrust::counting_iterator<unsigned>(2 * n), b.begin(),
                      key_below{distinct_keys});
    thrust::sort(a.begin(), a.end());
    thrust::sort(b.begin(), b.end());
  }
  mergepath::cuda_context ctx;
  std::printf("%s, n = %ld + %ld int32 keys, %s\n", name, static_cast<long>(n), static_cast<long>(n),
              distinct_keys == 0 ? "evens and odds" : ("keys below " + std::to_string(distinct_keys)).c_str());
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
                              mergepath::kernel::no_values{}, index_t{0}, false, mergepath::less<>{});
  };
  auto merge = [&] { mergepath::merge<policy>(ctx, pa, n, pb, n, po); };
  auto copy = [&] {
    cudaMemcpyAsync(out2.data().get(), po, 2 * n * sizeof(int), cudaMemcpyDeviceToDevice, ctx.stream());
  };
  std::size_t cub_bytes = 0;
  MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(nullptr, cub_bytes, pa, n, pb, n, out2.data().get(),
                                                   ::cuda::std::less<>{}, ctx.stream()));
  thrust::device_vector<unsigned char> cub_temp(cub_bytes + 1);
  auto cub_merge = [&] {
    MERGEPATH_CUDA_CHECK(cub::DeviceMerge::MergeKeys(cub_temp.data().get(), cub_bytes, pa, n, pb, n, out2.data().get(),
                                                     ::cuda::std::less<>{}, ctx.stream()));
  };
  for (int calls : {1, 10}) {
    std::printf("calls %2d: merge %.1f us, partition %.1f us, tile kernel %.1f us, copy of the output %.1f us, "
                "cub::DeviceMerge %.1f us\n",
                calls, per_call_us(ctx.stream(), calls, merge), per_call_us(ctx.stream(), calls, partition),
                per_call_us(ctx.stream(), calls, tile), per_call_us(ctx.stream(), calls, copy),
                per_call_us(ctx.stream(), calls, cub_merge));
  }
  merge();
  std::printf("  %s\n", out == out2 ? "ok (equals CUB's)" : "MISMATCH against CUB");
  ctx.synchronize();
}

int probe_main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  const unsigned distinct_keys = argc > 2 ? static_cast<unsigned>(std::atol(argv[2])) : 0;
  measure<mergepath::default_merge_policy<int>>("default tuning", n, distinct_keys);
  measure<wide_policy>("{384, 27}", n, distinct_keys);
  return 0;
}

}  // namespace probe_merge_time

// ==== case mergesort (was scripts/probe_mergesort.cu) =================================
// A quick mergesort probe: 2^26 random keys sorted by mergepath (a few tunings) and by CUB's merge
// and radix sorts, timed with events (median of reps), results checked. Also a fixed workload for ncu.
namespace probe_mergesort {

template <class K>
struct random_key {
  __host__ __device__ K operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 12345u));
    unsigned long long hi = rng(), lo = rng();
    return static_cast<K>((hi << 32) ^ lo);
  }
};

// The default tuning with other four-way tiles (FT 0: two-way passes only).
template <class Key, class Value, int FT, int FI, int FR>
struct four_way_shape {
  static constexpr mergepath::mergesort_tuning tuning = [] {
    mergepath::mergesort_tuning t = mergepath::default_mergesort_policy<Key, Value>::tuning;
    t.four_way = {FT, FI, FR};
    return t;
  }();
};

template <class K>
void run(long n, int reps) {
  thrust::device_vector<K> input(n), keys(n), ref(n), out(n);
  thrust::device_vector<int> vals(n), vout(n);
  thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                    input.begin(), random_key<K>{});
  ref = input;
  thrust::sort(ref.begin(), ref.end());
  mergepath::cuda_context ctx(cudaStream_t{0});
  K* k = keys.data().get();
  int* v = vals.data().get();
  auto reset = [&] { thrust::copy(input.begin(), input.end(), keys.begin()); thrust::sequence(vals.begin(), vals.end()); };
  auto check = [&](const char* what) {
    cudaDeviceSynchronize();
    bool ok = keys == ref;
    std::printf("  %-44s %s\n", what, ok ? "ok" : "MISMATCH");
  };
  double gk = n / 1e6;
  auto report = [&](const char* what, float ms) { std::printf("%-48s %8.3f ms %8.2f Gkeys/s\n", what, ms, gk / ms); };
  std::printf("--- %zu-byte keys, n = %ld\n", sizeof(K), n);
  report("copy", median_ms(reps, [] {}, [&] { cudaMemcpyAsync(out.data().get(), k, n * sizeof(K), cudaMemcpyDeviceToDevice); }));

  std::size_t temp_bytes = 0;
  cub::DeviceMergeSort::StableSortKeys(nullptr, temp_bytes, k, n, mergepath::less<>{});
  thrust::device_vector<char> temp(temp_bytes);
  report("cub::DeviceMergeSort::StableSortKeys", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceMergeSort::StableSortKeys(temp.data().get(), b, k, n, mergepath::less<>{});
  }));
  check("cub merge sort keys");
  temp_bytes = 0;
  cub::DeviceMergeSort::StableSortPairs(nullptr, temp_bytes, k, v, n, mergepath::less<>{});
  temp.resize(temp_bytes);
  report("cub::DeviceMergeSort::StableSortPairs", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceMergeSort::StableSortPairs(temp.data().get(), b, k, v, n, mergepath::less<>{});
  }));
  temp_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, k, out.data().get(), n);
  temp.resize(temp_bytes);
  report("cub::DeviceRadixSort::SortKeys", median_ms(reps, reset, [&] {
    std::size_t b = temp_bytes;
    cub::DeviceRadixSort::SortKeys(temp.data().get(), b, k, out.data().get(), n);
  }));

  report("mergepath::mergesort (default)", median_ms(reps, reset, [&] { mergepath::mergesort(ctx, k, n); }));
  check("mergepath keys");
  report("mergepath::mergesort_pairs (default)", median_ms(reps, reset, [&] { mergepath::mergesort_pairs(ctx, k, v, n); }));
  check("mergepath pairs");
  auto tuned = [&](auto policy, const char* name) {
    using P = decltype(policy);
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort<P>(ctx, k, n); }));
    check(name);
  };
  auto tuned_pairs = [&](auto policy, const char* name) {
    using P = decltype(policy);
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort_pairs<P>(ctx, k, v, n); }));
    check(name);
  };
  // Four-way tiles (the blocksort and two-way tiles as the defaults'); 0 x 0: two-way only.
  tuned(four_way_shape<K, void, 0, 0, 0>{}, "keys two-way only");
  tuned(four_way_shape<K, void, 256, 23, 1536>{}, "keys four-way 256 x 23 @1536");
  tuned(four_way_shape<K, void, 128, 23, 1536>{}, "keys four-way 128 x 23 @1536");
  tuned(four_way_shape<K, void, 128, 23, 1024>{}, "keys four-way 128 x 23 @1024");
  tuned(four_way_shape<K, void, 256, 15, 1024>{}, "keys four-way 256 x 15 @1024");
  if constexpr (sizeof(K) == 4) {
    tuned_pairs(four_way_shape<K, int, 0, 0, 0>{}, "pairs two-way only");
    tuned_pairs(four_way_shape<K, int, 128, 23, 1024>{}, "pairs four-way 128 x 23 @1024");
    tuned_pairs(four_way_shape<K, int, 256, 23, 1024>{}, "pairs four-way 256 x 23 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 15, 1024>{}, "pairs four-way 128 x 15 @1024");
    tuned_pairs(four_way_shape<K, int, 256, 15, 1024>{}, "pairs four-way 256 x 15 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 15, 1536>{}, "pairs four-way 128 x 15 @1536");
    tuned_pairs(four_way_shape<K, int, 128, 19, 1024>{}, "pairs four-way 128 x 19 @1024");
    tuned_pairs(four_way_shape<K, int, 128, 11, 1024>{}, "pairs four-way 128 x 11 @1024");
    tuned_pairs(four_way_shape<K, int, 64, 15, 1024>{}, "pairs four-way 64 x 15 @1024");
  }
}

// --case mergesort N REPS: the table. --case mergesort N REPS profile: only mergepath's sorts of
// int32 keys and pairs, once each, for a profiler. --case mergesort N REPS double: double keys.
int probe_main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  if (argc > 3 && std::string(argv[3]) == "profile") {
    thrust::device_vector<int> keys(n), vals(n);
    thrust::transform(thrust::counting_iterator<unsigned long long>(0), thrust::counting_iterator<unsigned long long>(n),
                      keys.begin(), random_key<int>{});
    thrust::device_vector<int> input = keys;
    mergepath::cuda_context ctx;
    mergepath::mergesort(ctx, keys.data().get(), n);
    keys = input;
    mergepath::mergesort_pairs(ctx, keys.data().get(), vals.data().get(), n);
    ctx.synchronize();
    return 0;
  }
  if (argc > 3 && std::string(argv[3]) == "double") {  // 8-byte floating-point keys alone
    run<double>(n, reps);
    return 0;
  }
  run<int>(n, reps);
  if (argc <= 3) run<long long>(n, reps);
  return 0;
}

}  // namespace probe_mergesort

// ==== case search (was scripts/probe_search.cu) =======================================
// Quick device probe for the searches (issue 6): 2^26 random int32 needles into 2^26 sorted keys,
// and the seed's case (2^25 - 1 keys searched for themselves); times of each path and a check.
namespace probe_search {

// Variants tried against the library's kernels (a probe, not the library).
__global__ void layout_gather(const int* sorted, long n, int* tree) {
  const mergepath::eytzinger_shape shape(n);
  for (long k = blockIdx.x * (long)blockDim.x + threadIdx.x; k < n; k += (long)gridDim.x * blockDim.x)
    tree[k] = sorted[shape.sorted_index(k + 1)];
}
// Each block scatters one contiguous range of the sorted keys.
__global__ void layout_blocked(const int* sorted, long n, int* tree, long per_block) {
  const mergepath::eytzinger_shape shape(n);
  long begin = blockIdx.x * per_block, end = begin + per_block < n ? begin + per_block : n;
  for (long i = begin + threadIdx.x; i < end; i += blockDim.x) tree[shape.node_of(i) - 1] = __ldg(sorted + i);
}
__global__ void binary_ldg(const int* needles, long n, const int* hay, long m, long* out) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    int x = __ldg(needles + i);
    long base = 0, count = m;
    while (count > 0) {
      long half = count / 2;
      bool past = __ldg(hay + base + half) < x;
      base = past ? base + half + 1 : base;
      count = past ? count - half - 1 : half;
    }
    out[i] = base;
  }
}
template <int CachedBytes>
__global__ void eytzinger_ldg(const int* needles, long n, const int* tree, long count, long cached, long* out) {
  __shared__ int top[CachedBytes / 4];
  for (long k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const mergepath::eytzinger_shape shape(count);
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    int x = __ldg(needles + i);
    long k = 1;
    while (k <= cached) k = 2 * k + (top[k - 1] < x);
    while (k <= count) k = 2 * k + (__ldg(tree + k - 1) < x);
    k >>= __ffsll(~k);
    out[i] = k == 0 ? count : shape.sorted_index(k);
  }
}

// Two searches per thread, interleaved: two independent chains of loads in flight.
__global__ void binary_x2(const int* needles, long n, const int* hay, long m, long* out) {
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += 2 * stride) {
    long j = i + stride < n ? i + stride : i;
    int x0 = needles[i], x1 = needles[j];
    long b0 = 0, c0 = m, b1 = 0, c1 = m;
    while (c0 > 0 || c1 > 0) {
      long h0 = c0 / 2, h1 = c1 / 2;
      bool p0 = c0 > 0 && hay[b0 + h0] < x0;
      bool p1 = c1 > 0 && hay[b1 + h1] < x1;
      if (c0 > 0) { b0 = p0 ? b0 + h0 + 1 : b0; c0 = p0 ? c0 - h0 - 1 : h0; }
      if (c1 > 0) { b1 = p1 ? b1 + h1 + 1 : b1; c1 = p1 ? c1 - h1 - 1 : h1; }
    }
    out[i] = b0;
    out[j] = b1;
  }
}
template <int CachedBytes, int Ways>
__global__ void eytzinger_xw(const int* needles, long n, const int* tree, long count, long cached, long* out) {
  __shared__ int top[CachedBytes / 4];
  for (long k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const mergepath::eytzinger_shape shape(count);
  long stride = (long)gridDim.x * blockDim.x;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += Ways * stride) {
    int x[Ways];
    long k[Ways], at[Ways];
    for (int w = 0; w < Ways; ++w) { at[w] = i + w * stride < n ? i + w * stride : i; x[w] = needles[at[w]]; k[w] = 1; }
    while (k[0] <= cached)
      for (int w = 0; w < Ways; ++w) k[w] = 2 * k[w] + (top[k[w] - 1] < x[w]);
    // every needle's walk has the same length: the levels below the cache
    while (k[0] <= count || (Ways > 1 && k[Ways - 1] <= count)) {
      for (int w = 0; w < Ways; ++w) if (k[w] <= count) k[w] = 2 * k[w] + (__ldg(tree + k[w] - 1) < x[w]);
    }
    for (int w = 0; w < Ways; ++w) {
      long kk = k[w] >> __ffsll(~k[w]);
      out[at[w]] = kk == 0 ? count : shape.sorted_index(kk);
    }
  }
}

template <class F>
float time_ms(cudaStream_t s, F f, int reps = 5) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  f();
  std::vector<float> t;
  for (int r = 0; r < reps; ++r) {
    cudaEventRecord(a, s);
    f();
    cudaEventRecord(b, s);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

int probe_main(int argc, char** argv) {
  mergepath::cuda_context ctx;
  if (argc > 1) {  // `--case search sort`: one sorting-path batch_search of 2^26 into 2^26, for ncu
    long n = 1L << 26;
    thrust::device_vector<int> hay(n), needles(n);
    thrust::sequence(hay.begin(), hay.end());
    thrust::device_vector<long> out(n);
    mergepath::batch_search(ctx, needles.data().get(), n, hay.data().get(), n, out.data().get(), mergepath::less<>{},
                            mergepath::search_strategy::sort_then_search);
    ctx.synchronize();
    return 0;
  }
  cudaStream_t s = ctx.stream();
  for (long n : {(1L << 25) - 1, 1L << 26}) {
    std::mt19937_64 rng(5);
    std::vector<int> hay(n), needles(n);
    for (auto& x : hay) x = static_cast<int>(rng() % (4 * n));
    std::sort(hay.begin(), hay.end());
    bool seed_case = n != (1L << 26);
    if (seed_case) needles = hay;
    else for (auto& x : needles) x = static_cast<int>(rng() % (4 * n));
    thrust::device_vector<int> d_hay(hay.begin(), hay.end()), d_needles(needles.begin(), needles.end()), tree(n), copy(n);
    thrust::device_vector<long> ref(n), out(n);
    float t_thrust = time_ms(s, [&] { thrust::lower_bound(thrust::cuda::par.on(s), d_hay.begin(), d_hay.end(), d_needles.begin(), d_needles.end(), ref.begin()); });
    float t_copy = time_ms(s, [&] { cudaMemcpyAsync(copy.data().get(), d_hay.data().get(), n * 4, cudaMemcpyDeviceToDevice, s); });
    float t_layout = time_ms(s, [&] { mergepath::eytzinger_layout(ctx, d_hay.data().get(), n, tree.data().get()); });
    auto check = [&](const char* what) { ctx.synchronize(); bool ok = thrust::equal(ref.begin(), ref.end(), out.begin()); if (!ok) std::printf("  %s MISMATCH\n", what); };
    float t_bs = time_ms(s, [&] { mergepath::binary_search(ctx, d_needles.data().get(), n, d_hay.data().get(), n, out.data().get()); });
    check("binary_search");
    float t_ey = time_ms(s, [&] { mergepath::eytzinger_search(ctx, d_needles.data().get(), n, tree.data().get(), n, out.data().get()); });
    check("eytzinger_search");
    float t_sort = time_ms(s, [&] { mergepath::batch_search(ctx, d_needles.data().get(), n, d_hay.data().get(), n, out.data().get(), mergepath::less<>{}, mergepath::search_strategy::sort_then_search); });
    check("sort_then_search");
    int sms = ctx.props().multiProcessorCount;
    float t_gather = time_ms(s, [&] { layout_gather<<<sms * 16, 256, 0, s>>>(d_hay.data().get(), n, copy.data().get()); });
    long per_block = 8192;
    float t_blocked = time_ms(s, [&] { layout_blocked<<<(n + per_block - 1) / per_block, 256, 0, s>>>(d_hay.data().get(), n, copy.data().get(), per_block); });
    float t_bldg = time_ms(s, [&] { binary_ldg<<<sms * 16, 256, 0, s>>>(d_needles.data().get(), n, d_hay.data().get(), n, out.data().get()); });
    check("binary_ldg");
    float t_e16 = time_ms(s, [&] { eytzinger_ldg<16384><<<sms * 8, 256, 0, s>>>(d_needles.data().get(), n, tree.data().get(), n, 4095, out.data().get()); });
    check("eytzinger_ldg16");
    float t_e64 = time_ms(s, [&] { eytzinger_ldg<32768><<<sms * 4, 512, 0, s>>>(d_needles.data().get(), n, tree.data().get(), n, 8191, out.data().get()); });
    check("eytzinger_ldg32");
    float t_bx2 = time_ms(s, [&] { binary_x2<<<sms * 16, 256, 0, s>>>(d_needles.data().get(), n, d_hay.data().get(), n, out.data().get()); });
    check("binary_x2");
    float t_ex2 = time_ms(s, [&] { eytzinger_xw<32768, 2><<<sms * 4, 512, 0, s>>>(d_needles.data().get(), n, tree.data().get(), n, 8191, out.data().get()); });
    check("eytzinger_x2");
    float t_ex4 = time_ms(s, [&] { eytzinger_xw<32768, 4><<<sms * 4, 512, 0, s>>>(d_needles.data().get(), n, tree.data().get(), n, 8191, out.data().get()); });
    check("eytzinger_x4");
    long pb2 = 32768;
    float t_blocked2 = time_ms(s, [&] { layout_blocked<<<(n + pb2 - 1) / pb2, 512, 0, s>>>(d_hay.data().get(), n, copy.data().get(), pb2); });
    std::printf("  more: binary x2 %.3f (%.2fx thrust) | eytzinger x2 %.3f (%.2fx binary) x4 %.3f (%.2fx binary, %.2fx binary x2) | blocked 32K/512 %.3f (%.2fx copy)\n",
                t_bx2, t_thrust / t_bx2, t_ex2, t_bs / t_ex2, t_ex4, t_bs / t_ex4, t_bx2 / t_ex4, t_blocked2, t_blocked2 / t_copy);
    std::printf("  variants: layout gather %.3f (%.2fx copy), blocked scatter %.3f (%.2fx copy) | binary ldg %.3f (%.2fx thrust) | eytzinger ldg 16K %.3f (%.2fx binary), 32K %.3f (%.2fx binary)\n",
                t_gather, t_gather / t_copy, t_blocked, t_blocked / t_copy, t_bldg, t_thrust / t_bldg, t_e16, t_bs / t_e16, t_e64, t_bs / t_e64);
    std::printf("n=%ld %s: thrust %.3f ms (%.2f Gk/s) | copy %.3f layout %.3f (%.2fx copy) | binary %.3f (%.2fx thrust) | eytzinger %.3f (%.2fx binary) | sort path %.3f (%.2fx thrust)\n",
                n, seed_case ? "sorted needles" : "random needles", t_thrust, n / t_thrust / 1e6, t_copy, t_layout, t_layout / t_copy,
                t_bs, t_thrust / t_bs, t_ey, t_bs / t_ey, t_sort, t_thrust / t_sort);
  }
  return 0;
}

}  // namespace probe_search

// ==== case search_cache (was scripts/probe_search_cache.cu) ===========================
// Device probe: L2 eviction hints for one-search-per-needle (binary and Eytzinger), 2^26 random
// int32 needles into 2^26 sorted keys. A search's deep levels are each read about once (2^26
// needles, 2^l nodes at level l), its upper ones many times: loads from level `deep` on are marked
// evict-first so that they, the needles and the bounds do not push the upper levels out of L2.
// Usage: mergepath-probe --case search_cache [N [binary|eytzinger|prefetch|grid|levels|persisting]] (default: 2^26, all).
namespace probe_search_cache {

enum hint { plain, first, last };

__device__ std::uint64_t l2_policy_first() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ std::uint64_t l2_policy_last() {
  std::uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ int load_hinted(const int* p, std::uint64_t policy) {
  int v;
  asm volatile("ld.global.L2::cache_hint.b32 %0, [%1], %2;" : "=r"(v) : "l"(p), "l"(policy));
  return v;
}

// Upper levels (< deep) with `upper` hints, deep levels evict-first (deep < 0: all plain).
template <bool ThreadPerNeedle>
__global__ void binary(const int* needles, long n, const int* hay, long m, int* out, int deep, hint upper) {
  const std::uint64_t pf = l2_policy_first(), pl = l2_policy_last();
  long first = blockIdx.x * (long)blockDim.x + threadIdx.x;
  long stride = ThreadPerNeedle ? n : (long)gridDim.x * blockDim.x;
  for (long i = first; i < n; i += stride) {
    int x = deep >= 0 ? __ldcs(needles + i) : needles[i];
    long base = 0, count = m;
    int level = 0;
    while (count > 0) {
      long half = count / 2;
      const int* p = hay + base + half;
      int e = deep >= 0 && level >= deep ? load_hinted(p, pf) : upper == last ? load_hinted(p, pl) : *p;
      bool past = e < x;
      base = past ? base + half + 1 : base;
      count = past ? count - half - 1 : half;
      ++level;
    }
    if (deep >= 0)
      __stcs(out + i, static_cast<int>(base));
    else
      out[i] = static_cast<int>(base);
  }
}

template <int Slots = 8192>
__global__ void eytzinger(const int* needles, long n, const int* tree, long count, long cached, int* out, int deep,
                          hint upper) {
  __shared__ int top[Slots];
  const std::uint64_t pf = l2_policy_first(), pl = l2_policy_last();
  for (long k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const mergepath::eytzinger_shape shape(count);
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    int x = deep >= 0 ? __ldcs(needles + i) : needles[i];
    long k = 1;
    int level = 0;
    while (k <= cached) k = 2 * k + (top[k - 1] < x), ++level;
    while (k <= count) {
      const int* p = tree + k - 1;
      int e = deep >= 0 && level >= deep ? load_hinted(p, pf) : upper == last ? load_hinted(p, pl) : *p;
      k = 2 * k + (e < x);
      ++level;
    }
    k >>= __ffsll(~k);
    int r = k == 0 ? static_cast<int>(count) : static_cast<int>(shape.sorted_index(k));
    if (deep >= 0)
      __stcs(out + i, r);
    else
      out[i] = r;
  }
}

// Evict-first from `deep`, and a prefetch into L2, from level `from` on, of the sector holding the
// node's descendants `distance` levels down (nodes 2^d k .. 2^d k + 2^d - 1 sit at tree[2^d k - 1 ..]).
template <int Distance, bool BothSectors>
__global__ void eytzinger_prefetch(const int* needles, long n, const int* tree, long count, long cached, int* out,
                                   int deep, int from) {
  __shared__ int top[8192];
  const std::uint64_t pf = l2_policy_first();
  for (long k = threadIdx.x; k < cached; k += blockDim.x) top[k] = tree[k];
  __syncthreads();
  const mergepath::eytzinger_shape shape(count);
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    int x = __ldcs(needles + i);
    long k = 1;
    int level = 0;
    while (k <= cached) k = 2 * k + (top[k - 1] < x), ++level;
    while (k <= count) {
      long ahead = k << Distance;
      if (level >= from && ahead <= count) {
        asm volatile("prefetch.global.L2 [%0];" ::"l"(tree + ahead));
        if (BothSectors) asm volatile("prefetch.global.L2 [%0];" ::"l"(tree + ahead - 1));
      }
      const int* p = tree + k - 1;
      int e = level >= deep ? load_hinted(p, pf) : *p;
      k = 2 * k + (e < x);
      ++level;
    }
    k >>= __ffsll(~k);
    __stcs(out + i, k == 0 ? static_cast<int>(count) : static_cast<int>(shape.sorted_index(k)));
  }
}

int probe_main(int argc, char** argv) {
  const long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  cudaStream_t s;
  cudaStreamCreate(&s);
  thrust::device_vector<int> needles(n), hay(n), out(n), ref(n), tree(n);
  make_search_inputs(needles, hay);
  const int* nd = needles.data().get();
  const int* hy = hay.data().get();
  int* o = out.data().get();
  int* tr = tree.data().get();
  mergepath::cuda_context ctx(s);
  mergepath::eytzinger_layout(ctx, hy, n, tr);
  auto report = [&](const char* what, double us) {
    cudaDeviceSynchronize();
    std::printf("%-56s %9.1f us  %s\n", what, us, out == ref ? "ok" : "MISMATCH");
    thrust::fill(out.begin(), out.end(), -1);
  };
  std::printf("thrust::lower_bound %.1f us\n", per_call_us(s, 1, [&] {
                thrust::lower_bound(thrust::cuda::par.on(s), hay.begin(), hay.end(), needles.begin(), needles.end(),
                                    ref.begin());
              }));
  char name[128];
  const std::string only = argc > 2 ? argv[2] : "all";
  auto wanted = [&](const char* group) { return only == "all" || only == group; };
  const unsigned full = static_cast<unsigned>((n + 255) / 256);
  if (wanted("binary"))  // evict-first from a step on; -1: no hints at all
    for (int deep : {-1, 14, 16, 17, 18, 20, 22})
      for (hint upper : {plain, last}) {
        if (deep < 0 && upper == last) continue;
        std::snprintf(name, sizeof name, "binary, thread per needle, evict-first from %d%s", deep,
                      upper == last ? ", evict-last above" : "");
        report(name, per_call_us(s, 1, [&] { binary<true><<<full, 256, 0, s>>>(nd, n, hy, n, o, deep, upper); }));
      }
  if (wanted("eytzinger"))  // 13 cached levels over a grid of 4 blocks per SM, evict-first from a level on
    for (int deep : {-1, 18, 20, 22, 23, 24})
      for (hint upper : {plain, last}) {
        if (deep < 0 && upper == last) continue;
        std::snprintf(name, sizeof name, "eytzinger, 13 levels cached, evict-first from %d%s", deep,
                      upper == last ? ", evict-last above" : "");
        report(name, per_call_us(s, 1, [&] { eytzinger<<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, deep, upper); }));
      }
  if (wanted("prefetch"))
    for (int from : {13, 18, 20}) {
      std::snprintf(name, sizeof name, "eytzinger, deep 23, prefetch 3 levels ahead from %d", from);
      report(name, per_call_us(s, 1, [&] { eytzinger_prefetch<3, false><<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, from); }));
      std::snprintf(name, sizeof name, "eytzinger, deep 23, prefetch 3 ahead (2 sectors) from %d", from);
      report(name, per_call_us(s, 1, [&] { eytzinger_prefetch<3, true><<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, from); }));
      std::snprintf(name, sizeof name, "eytzinger, deep 23, prefetch 2 levels ahead from %d", from);
      report(name, per_call_us(s, 1, [&] { eytzinger_prefetch<2, false><<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, from); }));
      std::snprintf(name, sizeof name, "eytzinger, deep 23, prefetch 4 ahead (2 sectors) from %d", from);
      report(name, per_call_us(s, 1, [&] { eytzinger_prefetch<4, true><<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, from); }));
    }
  if (wanted("grid"))  // needles per thread against each block's copy of the top levels
    for (unsigned blocks : {132u * 4, 132u * 16, 8192u, 32768u, 131072u}) {
      std::snprintf(name, sizeof name, "eytzinger, 13 levels, evict-first from 23, %u blocks of 512", blocks);
      report(name, per_call_us(s, 1, [&] { eytzinger<<<blocks, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, plain); }));
    }
  if (wanted("levels")) {  // one needle per thread, fewer levels in shared memory
    const unsigned per_needle = static_cast<unsigned>((n + 511) / 512);
    report("eytzinger, thread per needle, 13 levels", per_call_us(s, 1, [&] { eytzinger<8192><<<per_needle, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, plain); }));
    report("eytzinger, thread per needle, 12 levels", per_call_us(s, 1, [&] { eytzinger<4096><<<per_needle, 512, 0, s>>>(nd, n, tr, n, 4095, o, 23, plain); }));
    report("eytzinger, thread per needle, 11 levels", per_call_us(s, 1, [&] { eytzinger<2048><<<per_needle, 512, 0, s>>>(nd, n, tr, n, 2047, o, 23, plain); }));
    report("eytzinger, thread per needle, 10 levels", per_call_us(s, 1, [&] { eytzinger<1024><<<per_needle, 512, 0, s>>>(nd, n, tr, n, 1023, o, 23, plain); }));
    report("eytzinger, 2 needles per thread, 13 levels", per_call_us(s, 1, [&] { eytzinger<8192><<<per_needle / 2, 512, 0, s>>>(nd, n, tr, n, 8191, o, 23, plain); }));
    report("eytzinger, thread per needle, 256 thr, 11 levels", per_call_us(s, 1, [&] { eytzinger<2048><<<per_needle * 2, 256, 0, s>>>(nd, n, tr, n, 2047, o, 23, plain); }));
  }
  if (wanted("persisting")) {  // the upper levels in a set-aside part of L2 (an access policy window)
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    std::size_t set_aside = prop.persistingL2CacheMaxSize;
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside);
    for (double mb : {16.0, 32.0, 40.0}) {
      cudaStreamAttrValue attr = {};
      attr.accessPolicyWindow.base_ptr = tr;
      attr.accessPolicyWindow.num_bytes = static_cast<std::size_t>(mb * 1024 * 1024);
      attr.accessPolicyWindow.hitRatio = 1.0f;
      attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
      attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
      cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &attr);
      std::snprintf(name, sizeof name, "eytzinger, first %.0f MB persisting (set-aside %zu MB)", mb, set_aside >> 20);
      report(name, per_call_us(s, 1, [&] { eytzinger<<<132 * 4, 512, 0, s>>>(nd, n, tr, n, 8191, o, 22, plain); }));
      cudaCtxResetPersistingL2Cache();
    }
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}

}  // namespace probe_search_cache

// ==== case search_time (was scripts/probe_search_time.cu) =============================
// Where a sorted search's time goes: the median over reps of N back-to-back calls of the whole
// lower-bound search (A into B), of its partition pass alone and of its tile kernel alone, and
// of the complete index_match search, 2^26 + 2^26 int32 keys by default, timed with CUDA events.
namespace probe_search_time {

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
    mergepath::sorted_search<bounds::lower, search::index, search::none, Policy>(ctx, pa, n, pb, n, po, nullptr);
  };
  auto complete = [&] {
    mergepath::sorted_search<bounds::lower, search::index_match, search::index_match, Policy>(ctx, pa, n, pb, n, po,
                                                                                              b_out.data().get());
  };
  auto both_index = [&] {
    mergepath::sorted_search<bounds::lower, search::index, search::index, Policy>(ctx, pa, n, pb, n, po,
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

int probe_main(int argc, char** argv) {
  index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  measure_wait();
  measure<mergepath::default_sorted_search_policy<int>>(n);
  if (argc > 2) return 0;  // the default shape only
  measure<shape<256, 27, 2048>>(n);
  measure<shape<256, 31, 2048>>(n);
  measure<shape<256, 27, 1536>>(n);
  measure<shape<192, 27, 1920>>(n);
  measure<shape<256, 29, 2048>>(n);
  return 0;
}

}  // namespace probe_search_time

// ==== case search_wide =================================================================
// The sorted search as Python calls it: n sorted int32 needles into n sorted int32 keys, int64
// bounds out (numpy's searchsorted type), at several tile shapes, the bounds staged in shared
// memory as int32 or as int64, beside a copy of the same bytes (8n read, 8n written); and the
// complete index_match search with int64 results (always staged as int64).
namespace probe_search_wide {

using mergepath::bounds;
using mergepath::index_t;
using mergepath::search;

template <int Threads, int Items, int Resident>
struct shape {
  static constexpr mergepath::sorted_search_tuning tuning{Threads, Items, Resident};
};

struct inputs {
  thrust::device_vector<int> a, b;
  thrust::device_vector<std::int64_t> a_out, b_out;
};

template <class Policy>
void measure(const char* label, inputs& in, mergepath::cuda_context& ctx, double copy_us) {
  constexpr mergepath::sorted_search_tuning t = Policy::tuning;
  const index_t n = static_cast<index_t>(in.a.size());
  const int* pa = in.a.data().get();
  const int* pb = in.b.data().get();
  std::int64_t* a_out = in.a_out.data().get();
  std::int64_t* b_out = in.b_out.data().get();
  auto lower = [&](auto narrow) {
    return per_call_us(ctx.stream(), 10, [&] {
      mergepath::device::launch_sorted_search_staged<Policy, bounds::lower, search::index, search::none,
                                                     decltype(narrow)::value>(ctx, pa, n, pb, n, a_out, nullptr,
                                                                              mergepath::less<>{});
    });
  };
  const double narrow = lower(std::true_type{}), wide = lower(std::false_type{});
  double complete = per_call_us(ctx.stream(), 10, [&] {
    mergepath::sorted_search<bounds::lower, search::index_match, search::index_match, Policy>(ctx, pa, n, pb, n, a_out,
                                                                                              b_out);
  });
  std::printf("%-24s {%d, %2d, %4d}: lower bound staged as int32 %6.1f us (%3.0f%% of copy), as int64 %6.1f us "
              "(%3.0f%%); complete index_match %6.1f us\n",
              label, t.block_threads, t.items_per_thread, t.min_resident_threads, narrow, 100 * copy_us / narrow, wide,
              100 * copy_us / wide, complete);
}

int probe_main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atol(argv[1]) : (index_t{1} << 26);
  inputs in{thrust::device_vector<int>(n), thrust::device_vector<int>(n), thrust::device_vector<std::int64_t>(n),
            thrust::device_vector<std::int64_t>(n)};
  make_search_inputs(in.a, in.b);
  thrust::sort(in.a.begin(), in.a.end());
  mergepath::cuda_context ctx;
  // Check the default against thrust::lower_bound once.
  mergepath::sorted_search(ctx, in.a.data().get(), n, in.b.data().get(), n, in.a_out.data().get());
  thrust::device_vector<std::int64_t> want(n);
  thrust::lower_bound(in.b.begin(), in.b.end(), in.a.begin(), in.a.end(), want.begin());
  ctx.synchronize();
  std::printf("n = %ld + %ld int32, int64 bounds; default %s thrust::lower_bound\n", static_cast<long>(n),
              static_cast<long>(n), in.a_out == want ? "equals" : "DIFFERS FROM");
  thrust::device_vector<int> copy_in(4 * n), copy_out(4 * n);  // 16n bytes moved, as the lower bound's
  const double copy_us = per_call_us(ctx.stream(), 10, [&] {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy_out.data().get(), copy_in.data().get(), 2 * n * sizeof(int),
                                         cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  std::printf("copy of the same bytes %.1f us\n", copy_us);
  measure<mergepath::default_sorted_search_policy<int>>("default (int32 staging)", in, ctx, copy_us);
  measure<mergepath::default_sorted_search_policy<int, true, 8>>("default (int64 staging)", in, ctx, copy_us);
  measure<shape<256, 23, 2048>>("", in, ctx, copy_us);
  measure<shape<256, 13, 2048>>("", in, ctx, copy_us);
  measure<shape<256, 15, 2048>>("", in, ctx, copy_us);
  measure<shape<128, 23, 1024>>("", in, ctx, copy_us);
  measure<shape<512, 11, 2048>>("", in, ctx, copy_us);
  return 0;
}

}  // namespace probe_search_wide

// ==== case needles =====================================================================
// A few sorted needles in a long sorted b (1:16 .. 1:1024): thrust::lower_bound, the Merge Path
// search, the per-needle search (kernel::needle_search_kernel) and b's tiles, back-to-back calls,
// each checked against thrust.
// Needle keys: uniform over b's (random keys), distinct16 (16 values), clustered (uniform over a
// sixteenth of b's range), skewed (b's range times u^4). [LOG2_B [KEYS [LOG2_RATIO]]] (one ratio:
// for a profiler). PROBE_NEEDLE_SETS=K: K needle sets taken in turn.
namespace probe_needles {

using mergepath::index_t;

// The default tiles, with the per-needle search at NeedleRatio and b's tiles at BTileRatio (0:
// never; at any size of b otherwise).
template <int NeedleRatio, int BTileRatio, long long NeedleSampleMaxRatio = -1, int L1SpareBytes = -1>
struct search_path {
  static constexpr mergepath::sorted_search_tuning tuning = [] {
    mergepath::sorted_search_tuning t = mergepath::default_sorted_search_policy<int>::tuning;
    t.needle_search_ratio = NeedleRatio;
    t.b_tile_ratio = BTileRatio;
    if (BTileRatio > 0) t.b_tile_min_l2_percent = 0;  // b's tiles at any size of b
    if (NeedleSampleMaxRatio >= 0) t.needle_sample_max_ratio = NeedleSampleMaxRatio;
    if (NeedleSampleMaxRatio > 0) t.needle_sample_min_l2_percent = 0;
    if (L1SpareBytes >= 0) t.needle_l1_spare_bytes = L1SpareBytes;
    return t;
  }();
};

// Needle i's key for a distribution over b's key range [lo, hi].
struct needle_key {
  int kind;  // 0 uniform, 1 distinct16, 2 clustered, 3 skewed
  long long lo, hi;
  __host__ __device__ int operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 12345u));
    const double u = static_cast<double>(rng() ^ (rng() << 16)) / 4294967296.0;  // [0, 1)
    const double span = static_cast<double>(hi - lo);
    double x = u;
    if (kind == 1) x = static_cast<double>(static_cast<int>(u * 16)) / 16 + 1.0 / 32;
    if (kind == 2) x = 0.4 + u / 16;
    if (kind == 3) x = u * u * u * u;
    return static_cast<int>(lo + static_cast<long long>(x * span));
  }
};

// PROBE_ROWS="name,name" runs only those rows (names as printed, without the leading spaces),
// so that a profiler's -c counts one variant's launches.
bool row_selected(std::string what) {
  const char* rows = std::getenv("PROBE_ROWS");
  if (rows == nullptr) return true;
  what.erase(0, what.find_first_not_of(' '));
  return ("," + std::string(rows) + ",").find("," + what + ",") != std::string::npos;
}

int probe_main(int argc, char** argv) {
  const int log2_b = argc > 1 ? std::atoi(argv[1]) : 26;
  const std::string keys = argc > 2 ? argv[2] : "uniform";
  const int kind = keys == "distinct16" ? 1 : keys == "clustered" ? 2 : keys == "skewed" ? 3 : 0;
  const index_t nb = index_t{1} << log2_b;
  mergepath::cuda_context ctx;
  thrust::device_vector<int> b(nb);
  thrust::transform(thrust::counting_iterator<unsigned long long>(0),
                    thrust::counting_iterator<unsigned long long>(nb), b.begin(), probe_mergesort::random_key<int>{});
  thrust::sort(b.begin(), b.end());
  const needle_key make{kind, static_cast<int>(b.front()), static_cast<int>(b.back())};
  std::printf("needle keys: %s\n", keys.c_str());
  std::vector<int> log2_ratios = {5, 6, 7, 8, 9, 10};
  if (argc > 3) log2_ratios = {std::atoi(argv[3])};
  for (int log2_ratio : log2_ratios) {
    const index_t na = nb >> log2_ratio;
    // PROBE_NEEDLE_SETS=K: the calls take K sets of needles in turn (fresh needles each call, as a
    // service searching one b would), not the same set, whose lines stay in L2 between calls.
    const char* sets_env = std::getenv("PROBE_NEEDLE_SETS");
    const int num_sets = sets_env ? std::max(1, std::atoi(sets_env)) : 1;
    std::vector<thrust::device_vector<int>> a(num_sets, thrust::device_vector<int>(na));
    for (int k = 0; k < num_sets; ++k) {
      const auto first = static_cast<unsigned long long>(nb + k * na);
      thrust::transform(thrust::counting_iterator<unsigned long long>(first),
                        thrust::counting_iterator<unsigned long long>(first + na), a[k].begin(), make);
      thrust::sort(a[k].begin(), a[k].end());
    }
    thrust::device_vector<int> out(na), expect(na);
    int call = 0;
    auto next_set = [&] { return a[static_cast<std::size_t>(call++ % num_sets)].data().get(); };
    const int* pb = b.data().get();
    const double thrust_us = per_call_us(ctx.stream(), 20, [&] {
      const int* pa = next_set();
      thrust::lower_bound(thrust::cuda::par_nosync.on(ctx.stream()), b.begin(), b.end(), pa, pa + na, expect.begin());
    });
    thrust::lower_bound(thrust::cuda::par_nosync.on(ctx.stream()), b.begin(), b.end(), a[0].begin(), a[0].end(),
                        expect.begin());
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::printf("--- |A| = 2^%d, |B| = 2^%d (1:%d)\n  thrust::lower_bound %8.1f us\n", log2_b - log2_ratio, log2_b,
                1 << log2_ratio, thrust_us);
    auto row = [&](auto path, const char* what) {
      using Policy = decltype(path);
      if (!row_selected(what)) return;
      thrust::fill(out.begin(), out.end(), -1);
      auto search = [&](const int* pa) {
        mergepath::sorted_search<mergepath::bounds::lower, mergepath::search::index, mergepath::search::none, Policy>(
            ctx, pa, na, pb, nb, out.data().get(), nullptr);
      };
      const double us = per_call_us(ctx.stream(), 20, [&] { search(next_set()); });
      search(a[0].data().get());                                  // the check's call
      MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));  // before the check reads out
      std::printf("  %-34s %8.1f us  %5.2fx thrust  %s\n", what, us, thrust_us / us, out == expect ? "ok" : "MISMATCH");
    };
    row(search_path<0, 0>{}, "Merge Path");
    row(search_path<1, 0>{}, "per needle");
    row(search_path<1, 0, 0>{}, "  no samples");
    row(search_path<1, 0, 1LL << 40>{}, "  samples always");
    row(search_path<1, 0, -1, 0>{}, "  L1 not spared");
    row(search_path<1, 0, 0, 4096>{}, "  spared to 4 KB");
    row(search_path<1, 0, 0, 16384>{}, "  spared to 16 KB");
    if (log2_ratio <= 6) {
      row(search_path<0, 1>{}, "b tiles");
    }
  }
  return 0;
}

}  // namespace probe_needles

// ==== case gallop ======================================================================
// The CPU's plain bounds of a few sorted needles in a long b on one thread: the Merge Path walk
// (thread::serial_search over all of b), galloping from needle to needle (host::gallop_search) and
// std::lower_bound per needle, best of 5, from 1:16 to 1:65536. [LOG2_B]
namespace probe_gallop {

using mergepath::index_t;

template <class F>
double best_ms(F f) {
  double best = 1e30;
  for (int r = 0; r < 5; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

int probe_main(int argc, char** argv) {
  const index_t nb = index_t{1} << (argc > 1 ? std::atoi(argv[1]) : 24);
  std::mt19937 rng(1);
  std::vector<int> b(static_cast<std::size_t>(nb));
  for (int& x : b) x = static_cast<int>(rng() >> 1);
  std::sort(b.begin(), b.end());
  mergepath::host_context one(1);
  for (int shift : {4, 6, 8, 9, 10, 12, 14, 16}) {
    const index_t na = nb >> shift;
    std::vector<int> a(static_cast<std::size_t>(na));
    for (int& x : a) x = static_cast<int>(rng() >> 1);
    std::sort(a.begin(), a.end());
    std::vector<index_t> walked(a.size()), galloped(a.size()), expect(a.size());
    const double walk = best_ms([&] {
      mergepath::serial_search<mergepath::bounds::lower, mergepath::search::index, mergepath::search::none>(
          a.data(), na, b.data(), nb, 0, na, 0, nb, walked.data(), nullptr, mergepath::less<>{});
    });
    const double gallop = best_ms([&] {
      mergepath::host::gallop_search<mergepath::bounds::lower>(one, a.data(), na, b.data(), nb, galloped.data(),
                                                               mergepath::less<>{});
    });
    const double std_ms = best_ms([&] {
      for (std::size_t i = 0; i < a.size(); ++i) expect[i] = std::lower_bound(b.begin(), b.end(), a[i]) - b.begin();
    });
    std::printf("1:%-6d walk %8.2f ms  gallop %8.2f ms  std::lower_bound %8.2f ms  %s\n", 1 << shift, walk, gallop,
                std_ms, walked == expect && galloped == expect ? "ok" : "MISMATCH");
  }
  return 0;
}

}  // namespace probe_gallop

// ==== case load_balance ================================================================
// load_balancing_search, interval_expand and segmented_reduce of 2^26 items (int32), segment
// lengths uniform in [0, 2 * MEAN]: per-call times beside a device copy of the output, each
// checked against thrust::upper_bound, and the search and expansion at a few tile shapes;
// segmented_reduce beside cub::DeviceReduce::Sum (a bare read of the items) and CUB's segmented
// reduce, with its merge-path tiles and its streaming path at a few shapes side by side; with
// CALLS = 1, one call each, a fixed workload for ncu (-k regex:lbs|segmented_reduce).
// [MEAN [CALLS [LOG2_N]]]
namespace probe_load_balance {

using mergepath::index_t;

template <int Threads, int Items>
struct ab_policy {
  static constexpr mergepath::load_balance_tuning tuning{Threads, Items};
};
template <int Threads, int Vectors, int Stages, int Blocks, bool OneStartReduce = true>
struct stream_policy {
  using tuning_t = mergepath::segmented_reduce_stream_tuning;
  static constexpr tuning_t tuning{Threads, Vectors, Stages, Blocks, 1, OneStartReduce};
};

int probe_main(int argc, char** argv) {
  const index_t mean = argc > 1 ? std::atoll(argv[1]) : 4;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20;
  const index_t n = index_t{1} << (argc > 3 ? std::atoi(argv[3]) : 26);
  std::mt19937_64 rng(0x1b5 + static_cast<std::uint64_t>(mean));
  std::vector<int> offsets{0};
  while (offsets.back() < n) offsets.push_back(static_cast<int>(std::min<index_t>(offsets.back() + rng() % (2 * mean + 1), n)));
  offsets.pop_back();
  const auto segments = static_cast<index_t>(offsets.size());
  mergepath::cuda_context ctx;
  thrust::device_vector<int> starts(offsets), out(n), expect(n), values(n, 1), copy_out(n), sums(segments),
      segment_values(segments);
  thrust::sequence(segment_values.begin(), segment_values.end());
  thrust::upper_bound(starts.begin(), starts.end(), thrust::counting_iterator<int>(0),
                      thrust::counting_iterator<int>(static_cast<int>(n)), expect.begin());
  thrust::transform(expect.begin(), expect.end(), expect.begin(), [] __device__(int s) { return s - 1; });
  auto time = [&](const char* what, auto call) {
    const double us = calls > 1 ? per_call_us(ctx.stream(), calls, call) : (call(), 0.0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::printf("  %-24s %8.1f us", what, us);
    return us;
  };
  std::printf("--- 2^%d items, mean %lld (%lld segments)\n", static_cast<int>(std::log2(static_cast<double>(n))),
              static_cast<long long>(mean), static_cast<long long>(segments));
  time("copy of the output", [&] {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy_out.data().get(), out.data().get(), sizeof(int) * n,
                                         cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  std::printf("\n");
  time("load_balancing_search", [&] {
    mergepath::load_balancing_search(ctx, n, starts.data().get(), segments, out.data().get());
  });
  std::printf("  %s\n", out == expect ? "ok" : "MISMATCH");
  time("interval_expand", [&] {
    mergepath::interval_expand(ctx, segment_values.data().get(), n, starts.data().get(), segments, out.data().get());
  });
  std::printf("  %s\n", out == expect ? "ok" : "MISMATCH");
  {  // 8-byte starts and outputs (what the Python package passes)
    thrust::device_vector<long long> starts64(offsets.begin(), offsets.end()), out64(n), copy64(n),
        values64(segment_values.begin(), segment_values.end());
    time("copy of an int64 output", [&] {
      MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy64.data().get(), out64.data().get(), sizeof(long long) * n,
                                           cudaMemcpyDeviceToDevice, ctx.stream()));
    });
    std::printf("\n");
    time("  search, int64",
         [&] { mergepath::load_balancing_search(ctx, n, starts64.data().get(), segments, out64.data().get()); });
    std::printf("  %s\n", thrust::equal(out64.begin(), out64.end(), expect.begin()) ? "ok" : "MISMATCH");
    time("  expand, int64", [&] {
      mergepath::interval_expand(ctx, values64.data().get(), n, starts64.data().get(), segments, out64.data().get());
    });
    std::printf("  %s\n", thrust::equal(out64.begin(), out64.end(), expect.begin()) ? "ok" : "MISMATCH");
  }
  // The store kernel at a few tile shapes, side by side. Back-to-back calls keep the starts and
  // values in L2 from mean 16 on; bench --tunings rotates its inputs, and decides the tunings.
  auto one = [&](auto policy) {
    using P = decltype(policy);
    char name[64];
    std::snprintf(name, sizeof(name), "%dx%d", P::tuning.block_threads, P::tuning.items_per_thread);
    std::printf("  %-12s", name);
    thrust::fill(out.begin(), out.end(), -7);
    time("  search", [&] {
      mergepath::device::launch_transform_lbs<P>(ctx, mergepath::device::write_segment<int*>{out.data().get(), {}}, n,
                                                 starts.data().get(), segments);
    });
    std::printf(" %s", out == expect ? "ok" : "MISMATCH");
    thrust::fill(out.begin(), out.end(), -7);
    time("  expand", [&] {
      mergepath::device::launch_transform_lbs<P>(
          ctx, mergepath::device::expand_values<const int*, int*>{out.data().get(), {segment_values.data().get()}}, n,
          starts.data().get(), segments);
    });
    std::printf(" %s\n", out == expect ? "ok" : "MISMATCH");
  };
  if (calls > 1) {
    one(ab_policy<128, 15>{});
    one(ab_policy<128, 19>{});
    one(ab_policy<128, 31>{});
  }
  // The reduction's floors: all items read once (cub::DeviceReduce::Sum), and CUB's segmented reduce.
  {
    thrust::device_vector<int> ends(offsets.begin() + 1, offsets.end()), total(1);
    ends.push_back(static_cast<int>(n));
    std::size_t bytes = 0, seg_bytes = 0;
    MERGEPATH_CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, bytes, values.data().get(), total.data().get(), n, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(nullptr, seg_bytes, values.data().get(), sums.data().get(),
                                                         static_cast<int>(segments), starts.data().get(),
                                                         ends.data().get(), ctx.stream()));
    thrust::device_vector<unsigned char> temp(std::max(bytes, seg_bytes));
    time("cub::DeviceReduce::Sum", [&] {
      MERGEPATH_CUDA_CHECK(cub::DeviceReduce::Sum(temp.data().get(), bytes, values.data().get(), total.data().get(), n,
                                                  ctx.stream()));
    });
    std::printf("\n");
    time("cub segmented reduce", [&] {
      MERGEPATH_CUDA_CHECK(cub::DeviceSegmentedReduce::Sum(temp.data().get(), seg_bytes, values.data().get(),
                                                           sums.data().get(), static_cast<int>(segments),
                                                           starts.data().get(), ends.data().get(), ctx.stream()));
    });
    std::printf("\n");
  }
  if (calls > 1) {  // the merge-path tiles, whatever the mean
    time("segmented_reduce tiles", [&] {
      mergepath::device::launch_segmented_reduce_tiles<mergepath::default_segmented_reduce_policy<int>>(
          ctx, mergepath::value_at_as<const int*, int>{values.data().get()}, n, starts.data().get(), segments,
          sums.data().get(), 0, mergepath::plus<>{});
    });
    std::printf("\n");
    // The streaming path at a few shapes (threads, 16-byte pieces a thread, stages, blocks an SM).
    auto stream = [&](auto policy) {
      using P = decltype(policy);
      char name[64];
      std::snprintf(name, sizeof(name), "stream %dx%dx%d/%d%s", P::tuning.block_threads, P::tuning.vectors_per_thread,
                    P::tuning.stages, P::tuning.min_blocks_per_sm, P::tuning.one_start_reduce ? "" : " walk");
      time(name, [&] {
        mergepath::device::launch_segmented_reduce_stream<P>(ctx, static_cast<const int*>(values.data().get()), n,
                                                             starts.data().get(), segments, sums.data().get(), 0,
                                                             mergepath::plus<>{});
      });
      std::printf("\n");
    };
    stream(stream_policy<128, 8, 3, 4, false>{});  // sub-tiles with one start by the walk and scan
    stream(stream_policy<128, 8, 3, 4>{});         // the tuning from mean 7000
    stream(stream_policy<64, 8, 3, 8, false>{});
    stream(stream_policy<64, 8, 3, 8>{});  // the tuning from mean 1250
    stream(stream_policy<64, 8, 2, 12>{});
  }
  time("segmented_reduce", [&] {
    mergepath::segmented_reduce(ctx, values.data().get(), n, starts.data().get(), segments, sums.data().get(), 0);
  });
  thrust::host_vector<int> got = sums;
  index_t bad = 0, first_bad = -1;
  for (index_t s = 0; s < segments; ++s) {
    if (got[s] == (s + 1 < segments ? offsets[s + 1] : n) - offsets[s]) continue;
    if (bad++ == 0) first_bad = s;
  }
  if (bad == 0) {
    std::printf("  ok\n");
  } else {
    const index_t s = first_bad;
    std::printf("  MISMATCH at %lld segments, first %lld (start %d): %d, expected %lld\n", static_cast<long long>(bad),
                static_cast<long long>(s), offsets[s], got[s],
                static_cast<long long>((s + 1 < segments ? offsets[s + 1] : n) - offsets[s]));
  }
  return 0;
}

}  // namespace probe_load_balance

// ==== case segsort (was scripts/probe_segsort.cu) =====================================
// Quick device probe for the segmented sort: correctness against a per-segment std::stable_sort
// and the time of each call, over segment-length means; then locality_sort. Not a test (the
// tests live in tests/); a first look before the full round.
namespace probe_segsort {

namespace {

std::vector<int> make_heads(int n, double mean, std::mt19937_64& rng) {
  std::vector<int> heads;
  std::uniform_int_distribution<long> len(1, std::max<long>(1, static_cast<long>(2 * mean - 1)));
  for (long i = len(rng); i < n; i += len(rng)) heads.push_back(static_cast<int>(i));
  return heads;
}

// Milliseconds of one call of f on `stream` (after one warm-up call).
template <class F>
float time_ms(cudaStream_t stream, F f) {
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  f();
  cudaEventRecord(a, stream);
  f();
  cudaEventRecord(b, stream);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

}  // namespace

int probe_main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1 << 24;
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(7);
  std::vector<int> keys(n);
  for (int& k : keys) k = static_cast<int>(rng() % 1000000);
  if (argc > 3) {  // profile mode: `--case segsort N MEAN keys|pairs|locality` sorts once, for ncu or nsys
    double mean = std::atof(argv[2]);
    std::string what = argv[3];
    std::vector<int> heads = make_heads(n, mean, rng);
    thrust::device_vector<int> d_heads(heads.begin(), heads.end()), d_keys(keys.begin(), keys.end()), d_vals(n);
    if (what == "keys")
      mergepath::segmented_sort(ctx, d_keys.data().get(), n, d_heads.data().get(), static_cast<long>(heads.size()));
    else if (what == "pairs")
      mergepath::segmented_sort_pairs(ctx, d_keys.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                      static_cast<long>(heads.size()));
    else
      mergepath::locality_sort(ctx, d_keys.data().get(), n);
    ctx.synchronize();
    return 0;
  }
  auto copy = [&](const thrust::device_vector<int>& from, thrust::device_vector<int>& to) {
    cudaMemcpyAsync(to.data().get(), from.data().get(), from.size() * sizeof(int), cudaMemcpyDeviceToDevice,
                    ctx.stream());
  };
  bool all_ok = true;
  for (double mean : {2.0, 20.0, 300.0, 1e4, 1e6}) {
    std::vector<int> heads = make_heads(n, mean, rng);
    thrust::device_vector<int> d_heads(heads.begin(), heads.end());
    thrust::device_vector<int> d_keys(keys.begin(), keys.end()), d_vals(n);
    thrust::sequence(d_vals.begin(), d_vals.end());
    mergepath::segsort_stats stats;
    mergepath::segmented_sort_pairs(ctx, d_keys.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                    static_cast<long>(heads.size()), mergepath::less<>{}, &stats);
    ctx.synchronize();
    std::vector<int> out(n), vals(n);
    thrust::copy(d_keys.begin(), d_keys.end(), out.begin());
    thrust::copy(d_vals.begin(), d_vals.end(), vals.begin());
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) order[i] = i;
    std::size_t b = 0;
    heads.push_back(n);
    for (int e : heads) {
      std::stable_sort(order.begin() + b, order.begin() + e, [&](int l, int r) { return keys[l] < keys[r]; });
      b = e;
    }
    heads.pop_back();
    bool ok = true;
    for (int i = 0; i < n && ok; ++i) ok = vals[i] == order[i] && out[i] == keys[order[i]];
    all_ok &= ok;
    thrust::device_vector<int> work(n), d_orig(keys.begin(), keys.end());
    float keys_ms = time_ms(ctx.stream(), [&] { copy(d_orig, work); });
    float sort_ms = time_ms(ctx.stream(), [&] {
      copy(d_orig, work);
      mergepath::segmented_sort(ctx, work.data().get(), n, d_heads.data().get(), static_cast<long>(heads.size()));
    });
    float pairs_ms = time_ms(ctx.stream(), [&] {
      copy(d_orig, work);
      mergepath::segmented_sort_pairs(ctx, work.data().get(), d_vals.data().get(), n, d_heads.data().get(),
                                      static_cast<long>(heads.size()));
    });
    std::printf("mean %8.0f: %s  keys %.3f ms (%.1f Gkeys/s)  pairs %.3f ms (%.1f Gkeys/s)\n",
                mean, ok ? "ok" : "MISMATCH", sort_ms - keys_ms, n / (sort_ms - keys_ms) / 1e6, pairs_ms - keys_ms,
                n / (pairs_ms - keys_ms) / 1e6);
    if (mean == 300.0) std::cout << stats;
  }
  {
    std::vector<int> near(n);
    for (int i = 0; i < n; ++i) near[i] = i + static_cast<int>(rng() % 26);
    thrust::device_vector<int> d(near.begin(), near.end()), work(n);
    mergepath::segsort_stats stats;
    copy(d, work);
    mergepath::locality_sort(ctx, work.data().get(), n, mergepath::less<>{}, &stats);
    ctx.synchronize();
    std::vector<int> out(n), ref = near;
    thrust::copy(work.begin(), work.end(), out.begin());
    std::stable_sort(ref.begin(), ref.end());
    bool ok = out == ref;
    all_ok &= ok;
    float copy_ms = time_ms(ctx.stream(), [&] { copy(d, work); });
    float loc_ms = time_ms(ctx.stream(), [&] {
      copy(d, work);
      mergepath::locality_sort(ctx, work.data().get(), n);
    });
    float ms_ms = time_ms(ctx.stream(), [&] {
      copy(d, work);
      mergepath::mergesort(ctx, work.data().get(), n);
    });
    std::printf("locality: %s  %.3f ms (%.1f Gkeys/s); mergesort %.3f ms (%.1f Gkeys/s)\n", ok ? "ok" : "MISMATCH",
                loc_ms - copy_ms, n / (loc_ms - copy_ms) / 1e6, ms_ms - copy_ms, n / (ms_ms - copy_ms) / 1e6);
    std::cout << stats;
  }
  std::printf("%s\n", all_ok ? "ALL OK" : "FAILURES");
  return all_ok ? 0 : 1;
}

}  // namespace probe_segsort

// ==== case set_ops =====================================================================
// The four set operations of N + N sorted int32 keys in [0, N) (issue 21's shape, N = 2^25):
// per-call times beside Thrust's and a device copy of the inputs, each output checked against
// Thrust's; with CALLS = 1 one call each, a fixed workload for ncu (-k regex:set_). [N [CALLS]]
namespace probe_set_ops {

using mergepath::index_t;

template <int Threads, int Items, int MinBlocks>
struct shape {
  static constexpr mergepath::set_operation_tuning tuning{Threads, Items, MinBlocks};
};

int probe_main(int argc, char** argv) {
  const index_t n = argc > 1 ? std::atoll(argv[1]) : index_t{1} << 25;
  const int calls = argc > 2 ? std::atoi(argv[2]) : 20;
  thrust::device_vector<int> a(n), b(n), out(2 * n), expect(2 * n), copy_out(2 * n);
  auto fill = [&](thrust::device_vector<int>& v, unsigned seed) {
    thrust::tabulate(v.begin(), v.end(), [seed, n] __device__(index_t i) {
      thrust::default_random_engine rng(seed);
      rng.discard(2 * i);
      return static_cast<int>(thrust::uniform_int_distribution<index_t>(0, n - 1)(rng));
    });
    thrust::sort(v.begin(), v.end());
  };
  fill(a, 1);
  fill(b, 2);
  mergepath::cuda_context ctx;
  const int* pa = a.data().get();
  const int* pb = b.data().get();
  int* po = out.data().get();
  auto time = [&](const char* what, auto call) {
    const double us = calls > 1 ? per_call_us(ctx.stream(), calls, call) : (call(), 0.0);
    MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(ctx.stream()));
    std::printf("  %-28s %8.1f us", what, us);
    return us;
  };
  std::printf("--- set operations, 2^%.1f + 2^%.1f int32 keys in [0, n)\n", std::log2(static_cast<double>(n)),
              std::log2(static_cast<double>(n)));
  time("copy of a and b", [&] {
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(copy_out.data().get(), pa, sizeof(int) * n, cudaMemcpyDeviceToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(copy_out.data().get() + n, pb, sizeof(int) * n, cudaMemcpyDeviceToDevice, ctx.stream()));
  });
  std::printf("\n");
  const char* names[] = {"set_union", "set_intersection", "set_difference", "set_symmetric_difference"};
  auto policy = thrust::cuda::par.on(ctx.stream());
  for (int op = 0; op < 4; ++op) {
    int* expect_end = nullptr;
    const std::string thrust_name = std::string("thrust::") + names[op];
    time(thrust_name.c_str(), [&] {
      int* e = expect.data().get();
      if (op == 0) expect_end = thrust::set_union(policy, pa, pa + n, pb, pb + n, e);
      if (op == 1) expect_end = thrust::set_intersection(policy, pa, pa + n, pb, pb + n, e);
      if (op == 2) expect_end = thrust::set_difference(policy, pa, pa + n, pb, pb + n, e);
      if (op == 3) expect_end = thrust::set_symmetric_difference(policy, pa, pa + n, pb, pb + n, e);
    });
    std::printf("\n");
    index_t count = 0;
    const std::string name = std::string("mergepath::") + names[op];
    time(name.c_str(), [&] {
      if (op == 0) count = mergepath::set_union(ctx, pa, n, pb, n, po);
      if (op == 1) count = mergepath::set_intersection(ctx, pa, n, pb, n, po);
      if (op == 2) count = mergepath::set_difference(ctx, pa, n, pb, n, po);
      if (op == 3) count = mergepath::set_symmetric_difference(ctx, pa, n, pb, n, po);
    });
    const index_t want = expect_end - expect.data().get();
    const bool ok = count == want && thrust::equal(out.begin(), out.begin() + count, expect.begin());
    std::printf("  %lld keys %s\n", static_cast<long long>(count), ok ? "ok" : "MISMATCH");
  }
  // The tile shape and the tile kernel's register bound (set_operation_tuning::min_blocks), per op.
  auto shapes = [&](auto op, const char* name) {
    auto one = [&](auto policy, const char* what) {
      using P = decltype(policy);
      const std::string label = std::string(name) + " " + what;
      time(label.c_str(), [&] {
        mergepath::device::launch_set_operation<P, decltype(op)::value>(ctx, pa, nullptr, n, pb, nullptr, n, po,
                                                                        nullptr, mergepath::less<>{});
      });
      std::printf("\n");
    };
    one(shape<128, 23, 8>{}, "128 x 23, 8 blocks");
    one(shape<128, 31, 8>{}, "128 x 31, 8 blocks");
    one(shape<256, 31, 4>{}, "256 x 31, 4 blocks");
  };
  using mergepath::set_op;
  shapes(std::integral_constant<set_op, set_op::union_>{}, "union");
  shapes(std::integral_constant<set_op, set_op::intersection>{}, "intersection");
  shapes(std::integral_constant<set_op, set_op::difference>{}, "difference");
  shapes(std::integral_constant<set_op, set_op::symmetric_difference>{}, "symmetric_difference");
  return 0;
}

}  // namespace probe_set_ops

// ==== the harness ===============================================================================

namespace {

struct probe_case {
  const char* name;
  int (*main)(int argc, char** argv);
  const char* what;
};
const probe_case cases[] = {
    {"batch", probe_batch::probe_main, "batch_search's sorting path, per-needle variants, a run-writing layout [N]"},
    {"merge", probe_merge::probe_main,
     "fixed workload for ncu: merge and merge_pairs, 2^26 + 2^26 int32 (PROBE_DISTINCT_KEYS) [N [REPS]]"},
    {"merge4", probe_merge4::probe_main,
     "mergesort with four-way passes, two tile designs (PROBE_CHECK, PROBE_ONLY) [N [REPS]]"},
    {"merge_time", probe_merge_time::probe_main,
     "merge = partition pass + tile kernel + gaps beside CUB, back-to-back calls [N [DISTINCT_KEYS]]"},
    {"mergesort", probe_mergesort::probe_main,
     "mergesort at a few tunings beside CUB merge and radix sort [N [REPS [profile ...]]]"},
    {"search", probe_search::probe_main,
     "binary/Eytzinger/batch search: 2^26 random needles and the seed's case [sort: one sorting-path call, for ncu]"},
    {"search_cache", probe_search_cache::probe_main,
     "L2 eviction hints for one search per needle [N [binary|eytzinger|prefetch|grid|levels|persisting]]"},
    {"search_time", probe_search_time::probe_main,
     "sorted search = partition pass + tile kernel; index_match, back-to-back calls [N [CALLS]]"},
    {"needles", probe_needles::probe_main,
     "a few sorted needles in a long b: thrust, the Merge Path, the per-needle search, b's tiles [LOG2_B "
     "[uniform|distinct16|clustered|skewed]]"},
    {"gallop", probe_gallop::probe_main,
     "CPU: a few sorted needles in a long b, the Merge Path walk against galloping [LOG2_B]"},
    {"search_wide", probe_search_wide::probe_main, "sorted search, int64 bounds (Python's), several tile shapes [N]"},
    {"load_balance", probe_load_balance::probe_main,
     "load_balancing_search, interval_expand, segmented_reduce of 2^26 int32 [MEAN [CALLS [LOG2_N]]]"},
    {"set_ops", probe_set_ops::probe_main,
     "the four set operations of N + N int32 keys in [0, N) beside Thrust [N [CALLS]]"},
    {"segsort", probe_segsort::probe_main,
     "segmented sort over segment-length means, checked; then locality_sort [N [MEAN WHAT]]"},
};

void usage() {
  std::printf("usage: mergepath-probe --case NAME [ARGS...] | --list\n\ncases:\n");
  for (const probe_case& c : cases) std::printf("  %-13s %s\n", c.name, c.what);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--case") {
    for (const probe_case& c : cases)
      if (argv[2] == std::string(c.name)) return c.main(argc - 2, argv + 2);  // argv[0]: the case's name
    std::fprintf(stderr, "mergepath-probe: unknown case '%s'\n", argv[2]);
    usage();
    return 2;
  }
  usage();
  return argc >= 2 && std::string(argv[1]) == "--list" ? 0 : 2;
}
