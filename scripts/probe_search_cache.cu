// Device probe: L2 eviction hints for one-search-per-needle (binary and Eytzinger), 2^26 random
// int32 needles into 2^26 sorted keys. A search's deep levels are each read about once (2^26
// needles, 2^l nodes at level l), its upper ones many times: loads from level `deep` on are marked
// evict-first so that they, the needles and the bounds do not push the upper levels out of L2.
// Usage: probe_search_cache [N [binary|eytzinger|prefetch|grid|levels|persisting]] (default: 2^26, all).
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Iinclude scripts/probe_search_cache.cu
#include <mergepath/mergepath.hpp>

#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/random.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "probe_search_inputs.cuh"
#include "probe_timing.cuh"

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

int main(int argc, char** argv) {
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
