// What every mergepath-probe case shares: the includes, bench_util's timers, the search cases'
// inputs, random keys, and each case's entry point (main.cu lists them).
#pragma once

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

#include "../bench_util.cuh"

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

// Random keys of type K from an index (the same for every case and run).
template <class K>
struct random_key {
  __host__ __device__ K operator()(unsigned long long i) const {
    thrust::default_random_engine rng(static_cast<unsigned>(i * 2654435761u + 12345u));
    unsigned long long hi = rng(), lo = rng();
    return static_cast<K>((hi << 32) ^ lo);
  }
};

#include "probe_cases.hpp"
