// mergepath-probe cases for the searches: batch, binary, Eytzinger, sorted (docs/design/search.md).
#include "probe_common.cuh"

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

// ==== case search (was scripts/probe_search.cu) =======================================
// Quick device probe for the searches (issue 6): 2^26 random int32 needles into 2^26 sorted keys,
// and Futhark's table (2^25 - 1 keys searched for themselves); times of each path and a check.
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
    bool futhark_case = n != (1L << 26);
    if (futhark_case) needles = hay;
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
                n, futhark_case ? "sorted needles" : "random needles", t_thrust, n / t_thrust / 1e6, t_copy, t_layout, t_layout / t_copy,
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
                    thrust::counting_iterator<unsigned long long>(nb), b.begin(), random_key<int>{});
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
