// A quick mergesort probe: 2^26 random keys sorted by mergepath (a few tunings) and by CUB's merge
// and radix sorts, timed with events (median of reps), results checked. Also a fixed workload for ncu.
// Build: nvcc -std=c++17 -O3 -arch=sm_90 -Xcompiler=-fopenmp -Iinclude scripts/probe_mergesort.cu -o probe_mergesort
#include <mergepath/mergepath.hpp>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/random.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "probe_timing.cuh"

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
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort_tuned<P>(ctx, k, n); }));
    check(name);
  };
  auto tuned_pairs = [&](auto policy, const char* name) {
    using P = decltype(policy);
    report(name, median_ms(reps, reset, [&] { mergepath::mergesort_pairs_tuned<P>(ctx, k, v, n); }));
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

// probe_mergesort N REPS: the table. probe_mergesort N REPS profile: only mergepath's sorts of
// int32 keys and pairs, once each, for a profiler.
int main(int argc, char** argv) {
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
  run<int>(n, reps);
  if (argc <= 3) run<long long>(n, reps);
}
