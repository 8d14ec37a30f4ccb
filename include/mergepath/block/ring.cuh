// Shared-memory rings: a run that streams through a fixed buffer, refilled as it is consumed.
#pragma once

#include <cstdint>

#include "../detail/config.hpp"
#include "tile_io.cuh"

namespace mergepath {
namespace block {

// Element i of the view lives at buffer[(start + i) mod size]; start < size, i < size.
template <class T>
struct circular_view {
  const T* buffer;
  int start;
  int size;
  MERGEPATH_HD const T& operator[](int i) const {
    int j = start + i;  // one wrap at most
    return buffer[j >= size ? j - size : j];
  }
  MERGEPATH_HD circular_view operator+(int offset) const {
    int s = start + offset;
    return {buffer, s >= size ? s - size : s, size};
  }
};

// The ring slot where the run's first element goes: agreeing with its global address modulo
// 16 bytes, so that (with a ring size that is a multiple of the vector) every 16-byte piece of
// the run lands whole in one 16-byte slot group and can be copied as one.
template <class T, class It>
__device__ int ring_start_slot(It first) {
  constexpr int v = vector_items<T, It>;
  if constexpr (v > 1)
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(first) / sizeof(T) % v);
  else
    return 0;
}

// ring[(slot + j) mod RingSize] = src[j] for j in [0, count), count <= MaxCount, cooperatively;
// 16-byte pieces where the slot and the address agree modulo 16 bytes, single elements at the
// ragged ends. The copies may be asynchronous: commit, wait and __syncthreads() before reading.
template <int BlockThreads, int MaxCount, int RingSize, class T, class It>
__device__ void copy_run_to_ring(It src, int count, T* ring, int slot) {
  int tid = static_cast<int>(threadIdx.x);
  auto wrap = [](int s) { return s >= RingSize ? s - RingSize : s; };
  constexpr int v = vector_items<T, It>;
  if constexpr (v > 1) {
    static_assert(RingSize % v == 0, "a 16-byte piece must never straddle the ring's end");
    const T* from = src;
    if ((reinterpret_cast<std::uintptr_t>(from) - reinterpret_cast<std::uintptr_t>(ring + slot)) % 16 == 0) {
      int head = (v - slot % v) % v;  // elements before the first whole piece
      if (head > count) head = count;
      int vectors = (count - head) / v;
      int tail_begin = head + vectors * v;
      constexpr int max_vectors = MaxCount / v + 1;
      MERGEPATH_UNROLL
      for (int i = 0; i < (max_vectors + BlockThreads - 1) / BlockThreads; ++i) {
        int k = tid + i * BlockThreads;
        if (k < vectors) {
          int j = head + k * v;
          __pipeline_memcpy_async(ring + wrap(slot + j), from + j, 16);
        }
      }
      if (tid < head) copy_element_to_shared(ring + wrap(slot + tid), from + tid);
      int t = tid - head;
      if (t >= 0 && t < count - tail_begin)
        copy_element_to_shared(ring + wrap(slot + tail_begin + t), from + tail_begin + t);
      return;
    }
  }
  for (int j = tid; j < count; j += BlockThreads) copy_element_to_shared(ring + wrap(slot + j), src + j);
}

}  // namespace block
}  // namespace mergepath
