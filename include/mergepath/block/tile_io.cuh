// Moving a tile between global memory, shared memory and registers, cooperatively and coalesced.
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>
#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {
namespace block {

// cp.async moves 4, 8 or 16 naturally aligned bytes global -> shared without passing through
// registers, so a tile's loads can be in flight while the block works on another tile.
template <class T, class It>
constexpr bool can_copy_async =
    std::is_pointer_v<It> && (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) && alignof(T) == sizeof(T);

template <class T, class It>
__device__ __forceinline__ void copy_element_to_shared(T* dst, It src) {
  if constexpr (can_copy_async<T, It>)
    __pipeline_memcpy_async(dst, &*src, sizeof(T));
  else
    *dst = *src;
}

// Groups the copies issued so far; wait_for_copies<N>() waits until at most N groups are pending.
__device__ __forceinline__ void commit_copies() { __pipeline_commit(); }
template <int PendingGroups>
__device__ __forceinline__ void wait_for_copies() { __pipeline_wait_prior(PendingGroups); }

// shared[0, a_count) = a[0, a_count) and shared[a_count, a_count + b_count) = b[0, b_count).
// Thread t copies elements t, t + BlockThreads, ...: each warp touches consecutive addresses.
// The copies may be asynchronous: commit, wait and __syncthreads() before reading.
template <int BlockThreads, int ItemsPerThread, class T, class AIt, class BIt>
__device__ void load_two_ranges_to_shared(AIt a, int a_count, BIt b, int b_count, T* shared) {
  int count = a_count + b_count;
MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) {
    int j = static_cast<int>(threadIdx.x) + i * BlockThreads;
    if (j < count) {
      if (j < a_count)
        copy_element_to_shared(shared + j, a + j);
      else
        copy_element_to_shared(shared + j, b + (j - a_count));
    }
  }
}

// Each thread's ItemsPerThread consecutive results go to shared[ItemsPerThread * t + i].
template <int ItemsPerThread, class T>
__device__ void store_blocked_to_shared(const T (&items)[ItemsPerThread], T* shared) {
MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) shared[ItemsPerThread * threadIdx.x + i] = items[i];
}

// out[0, count) = shared[0, count), striped across threads so every warp store is coalesced.
// Where `out` is 16-byte aligned, each thread moves 16 bytes at a time: a quarter of the load
// and store instructions, which is what bounds this kernel's issue rate (`shared` is 16-byte
// aligned by construction).
template <int BlockThreads, int ItemsPerThread, class T, class OutIt>
__device__ void store_shared_to_global(const T* shared, int count, OutIt out) {
  if constexpr (std::is_pointer_v<OutIt> && sizeof(T) < 16 && 16 % sizeof(T) == 0 && alignof(T) == sizeof(T)) {
    if (reinterpret_cast<std::uintptr_t>(out) % 16 == 0) {
      constexpr int per_vector = 16 / sizeof(T);
      constexpr int max_vectors = (BlockThreads * ItemsPerThread + per_vector - 1) / per_vector;
      int vectors = count / per_vector;
      MERGEPATH_UNROLL
      for (int i = 0; i < (max_vectors + BlockThreads - 1) / BlockThreads; ++i) {
        int v = static_cast<int>(threadIdx.x) + i * BlockThreads;
        if (v < vectors) reinterpret_cast<uint4*>(out)[v] = reinterpret_cast<const uint4*>(shared)[v];
      }
      for (int j = vectors * per_vector + static_cast<int>(threadIdx.x); j < count; j += BlockThreads)
        out[j] = shared[j];
      return;
    }
  }
  MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) {
    int j = static_cast<int>(threadIdx.x) + i * BlockThreads;
    if (j < count) out[j] = shared[j];
  }
}

}  // namespace block
}  // namespace mergepath
