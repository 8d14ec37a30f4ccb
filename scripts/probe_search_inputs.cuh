// Inputs shared by the search probes: n random int32 needles (uniform over int32) and n sorted
// random int32 keys, the same for every probe and run.
#pragma once

#include <thrust/device_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/random.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

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
