// Quick device probe for the searches (issue 6): 2^26 random int32 needles into 2^26 sorted keys,
// and the seed's case (2^25 - 1 keys searched for themselves); times of each path and a check.
#include <mergepath/mergepath.hpp>
#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

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

int main(int argc, char** argv) {
  mergepath::cuda_context ctx;
  if (argc > 1) {  // `probe_search sort`: one sorting-path batch_search of 2^26 into 2^26, for ncu
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
}
