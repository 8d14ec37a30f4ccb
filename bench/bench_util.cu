// Input generation and output verification for mergepath-bench (see bench_util.cuh).
// Kept in one translation unit so cub::DeviceRadixSort compiles once.
#include <climits>
#include <cub/device/device_radix_sort.cuh>
#include <type_traits>

#include "bench_util.cuh"

namespace bench {
namespace {

constexpr int check_threads = 256;

int grid_for(index_t count) {
  // Grid-stride loops: enough blocks to fill any current GPU, never more than the work needs.
  index_t blocks = (count + check_threads - 1) / check_threads;
  return static_cast<int>(std::clamp<index_t>(blocks, 1, 8192));
}

template <class K>
__device__ std::uint64_t key_bits(K k) {
  using U = std::make_unsigned_t<K>;
  return static_cast<std::uint64_t>(static_cast<U>(k));
}

template <class K>
__global__ void random_keys_kernel(K* keys, index_t count, std::uint64_t seed, std::uint64_t distinct) {
  using U = std::make_unsigned_t<K>;
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    const std::uint64_t bits = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i)));
    keys[i] = static_cast<K>(static_cast<U>(distinct > 0 ? bits % distinct : bits));
  }
}

template <class K>
__global__ void near_sorted_keys_kernel(K* keys, index_t count, int spread, std::uint64_t seed) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    auto offset = static_cast<index_t>(splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(i))) %
                                       static_cast<std::uint64_t>(spread));
    keys[i] = static_cast<K>(i + offset);
  }
}

__global__ void origin_ids_kernel(std::int32_t* values, index_t count) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x)
    values[i] = static_cast<std::int32_t>(i + 1);
}

struct device_counters {
  unsigned long long bad, first_bad, unsorted, unstable, hash;
};

__device__ void note_bad(device_counters* c, index_t i) {
  atomicAdd(&c->bad, 1ull);
  atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
}

// Sums `local` over the block's warps into *target, one atomic per warp.
__device__ void add_warp_sum(unsigned long long* target, unsigned long long local) {
  for (int offset = 16; offset > 0; offset /= 2) local += __shfl_down_sync(0xffffffffu, local, offset);
  if ((threadIdx.x & 31) == 0) atomicAdd(target, local);
}

template <class K>
__global__ void check_keys_kernel(const K* out, const K* ref, index_t count, device_counters* c) {
  unsigned long long hash = 0;
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    K k = out[i];
    hash += splitmix64(key_bits(k));
    if (ref && k != ref[i]) note_bad(c, i);
    if (i > 0 && k < out[i - 1]) atomicAdd(&c->unsorted, 1ull);
  }
  add_warp_sum(&c->hash, hash);
}

// out_keys / out_values: a permutation of the pairs (in_keys[i], i + 1), i < count, with keys ref.
template <class K>
__global__ void check_pairs_kernel(const K* out_keys, const std::int32_t* out_values, const K* ref, const K* in_keys,
                                   index_t count, unsigned* seen, device_counters* c) {
  for (index_t i = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index_t>(gridDim.x) * blockDim.x) {
    K k = out_keys[i];
    std::int32_t v = out_values[i];
    bool bad = k != ref[i] || v < 1 || v > count;
    if (!bad) {
      index_t origin = v - 1;
      bad = in_keys[origin] != k;
      unsigned bit = 1u << (origin % 32);
      if (atomicOr(&seen[origin / 32], bit) & bit) bad = true;  // a second copy of the same element
    }
    if (bad) note_bad(c, i);
    if (i > 0 && k == out_keys[i - 1] && v <= out_values[i - 1]) atomicAdd(&c->unstable, 1ull);
  }
}

check_result read_counters(device_counters* d, cudaStream_t stream) {
  device_counters h{};
  MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(&h, d, sizeof h, cudaMemcpyDeviceToHost, stream));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));
  check_result r;
  r.bad = h.bad;
  r.first_bad = h.first_bad;
  r.unsorted = h.unsorted;
  r.unstable = h.unstable;
  r.hash = h.hash;
  return r;
}

device_buffer<device_counters> new_counters(cudaStream_t stream) {
  device_buffer<device_counters> c(1, "check counters");
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(c.data(), 0, sizeof(device_counters), stream));
  MERGEPATH_CUDA_CHECK(cudaMemsetAsync(&c.data()->first_bad, 0xff, sizeof(unsigned long long), stream));
  return c;
}

}  // namespace

template <class K>
void generate_random_keys(K* keys, index_t count, std::uint64_t seed, cudaStream_t stream, std::uint64_t distinct) {
  if (count == 0) return;
  mergepath::detail::launch("random_keys_kernel", random_keys_kernel<K>, grid_for(count), check_threads, 0, stream,
                            keys, count, seed, distinct);
}

template <class K>
void sort_keys(const K* in, K* out, index_t count, cudaStream_t stream) {
  if (count == 0) return;
  if (count > INT_MAX) throw std::invalid_argument("sort_keys: more than INT_MAX keys");
  std::size_t temp_bytes = 0;
  auto sort = [&](void* temp) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, in, out, static_cast<int>(count), 0,
                                          static_cast<int>(sizeof(K) * 8), stream);
  };
  MERGEPATH_CUDA_CHECK(sort(nullptr));
  device_buffer<unsigned char> temp(std::max<std::size_t>(temp_bytes, 1), "radix sort temp storage");
  MERGEPATH_CUDA_CHECK(sort(temp.data()));
  MERGEPATH_CUDA_CHECK(cudaStreamSynchronize(stream));  // before temp is freed
}

template <class K>
void generate_near_sorted_keys(K* keys, index_t count, int spread, std::uint64_t seed, cudaStream_t stream) {
  if (count == 0) return;
  if (spread < 1) throw std::invalid_argument("generate_near_sorted_keys: spread must be positive");
  mergepath::detail::launch("near_sorted_keys_kernel", near_sorted_keys_kernel<K>, grid_for(count), check_threads, 0,
                            stream, keys, count, spread, seed);
}

void fill_origin_ids(std::int32_t* values, index_t count, cudaStream_t stream) {
  if (count == 0) return;
  mergepath::detail::launch("origin_ids_kernel", origin_ids_kernel, grid_for(count), check_threads, 0, stream, values,
                            count);
}

template <class K>
unsigned long long multiset_hash(const K* x, index_t count, cudaStream_t stream) {
  return check_keys<K>(x, nullptr, count, stream).hash;
}

template <class K>
check_result check_keys(const K* out, const K* ref, index_t count, cudaStream_t stream) {
  auto counters = new_counters(stream);
  if (count > 0) {
    mergepath::detail::launch("check_keys_kernel", check_keys_kernel<K>, grid_for(count), check_threads, 0, stream, out,
                              ref, count, counters.data());
  }
  return read_counters(counters.data(), stream);
}

template <class K>
check_result check_pairs(const K* out_keys, const std::int32_t* out_values, const K* ref, const K* in_keys, index_t n,
                         cudaStream_t stream) {
  return check_permuted_pairs<K>(out_keys, out_values, ref, in_keys, 2 * n, stream);
}

template <class K>
check_result check_permuted_pairs(const K* out_keys, const std::int32_t* out_values, const K* ref, const K* in_keys,
                                  index_t count, cudaStream_t stream) {
  auto counters = new_counters(stream);
  if (count > 0) {
    device_buffer<unsigned> seen(static_cast<std::size_t>((count + 31) / 32), "check bitmap");
    MERGEPATH_CUDA_CHECK(cudaMemsetAsync(seen.data(), 0, seen.bytes(), stream));
    mergepath::detail::launch("check_pairs_kernel", check_pairs_kernel<K>, grid_for(count), check_threads, 0, stream,
                              out_keys, out_values, ref, in_keys, count, seen.data(), counters.data());
    return read_counters(counters.data(), stream);  // waits before `seen` is freed
  }
  return read_counters(counters.data(), stream);
}

#define BENCH_INSTANTIATE(K)                                                                                      \
  template void generate_random_keys<K>(K*, index_t, std::uint64_t, cudaStream_t, std::uint64_t);                 \
  template void generate_near_sorted_keys<K>(K*, index_t, int, std::uint64_t, cudaStream_t);                      \
  template void sort_keys<K>(const K*, K*, index_t, cudaStream_t);                                                \
  template unsigned long long multiset_hash<K>(const K*, index_t, cudaStream_t);                                  \
  template check_result check_keys<K>(const K*, const K*, index_t, cudaStream_t);                                 \
  template check_result check_pairs<K>(const K*, const std::int32_t*, const K*, const K*, index_t, cudaStream_t); \
  template check_result check_permuted_pairs<K>(const K*, const std::int32_t*, const K*, const K*, index_t,       \
                                                cudaStream_t);

BENCH_INSTANTIATE(std::int32_t)
BENCH_INSTANTIATE(std::int64_t)
#undef BENCH_INSTANTIATE

}  // namespace bench
