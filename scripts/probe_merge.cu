// A fixed workload for profilers (ncu): merge and merge_pairs of 2^26 + 2^26 int32, a few times.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler=-fopenmp -Iinclude scripts/probe_merge.cu -o probe_merge
#include <mergepath/mergepath.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/random.h>
#include <thrust/transform.h>
#include <thrust/iterator/counting_iterator.h>

struct random_key {
  __host__ __device__ int operator()(unsigned i) const {
    thrust::default_random_engine rng(i * 2654435761u + 12345u);
    return static_cast<int>(rng());
  }
};

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1l << 26);
  int reps = argc > 2 ? std::atoi(argv[2]) : 3;
  thrust::device_vector<int> a(n), b(n), out(2 * n), av(n), bv(n), outv(2 * n);
  thrust::transform(thrust::counting_iterator<unsigned>(0), thrust::counting_iterator<unsigned>(n), a.begin(), random_key{});
  thrust::transform(thrust::counting_iterator<unsigned>(n), thrust::counting_iterator<unsigned>(2 * n), b.begin(), random_key{});
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
}
