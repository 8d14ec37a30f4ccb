// Moving a tile between global memory, shared memory and registers, cooperatively and coalesced.
#pragma once

#include <cuda_pipeline.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "../detail/config.hpp"

namespace mergepath {
namespace block {

// cp.async moves 4, 8 or 16 naturally aligned bytes global -> shared without passing through
// registers, so a tile's loads can be in flight while the block works on another tile.
template <class T, class It>
constexpr bool can_copy_async = std::is_pointer_v<It> && (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) &&
                                alignof(T) == sizeof(T);

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
__device__ __forceinline__ void wait_for_copies() {
  __pipeline_wait_prior(PendingGroups);
}

// Asks L2 to fetch first[0, count) (sm_90's bulk prefetch: one instruction, nothing waits for it;
// a no-op for iterators that are not pointers and before sm_90). Tile kernels call it for a tile
// some blocks ahead of their own, so that its loads find L2 rather than DRAM: the blocks' DRAM
// reads stop waiting each on its own latency (docs/design/merge-and-mergesort.md#what-was-tried).
// The range is widened to whole 16-byte pieces, which lie in the same pages as its elements.
template <class It>
__device__ __forceinline__ void prefetch_to_l2(It first, index_t count) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  if constexpr (std::is_pointer_v<It>) {
    if (count <= 0) return;
    const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(first) / 16 * 16;
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(first + count) + 15) / 16 * 16;
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(begin), "r"(static_cast<unsigned>(end - begin))
                 : "memory");
  }
#else
  (void)first;
  (void)count;
#endif
}

// Where a tile's two runs sit in its shared-memory buffer (positions in elements).
struct tile_layout {
  int a_pos, a_count, b_pos, b_count;
  __device__ int count() const { return a_count + b_count; }
};

// Elements per 16-byte copy of T read through It, or 1 where T cannot move that way.
template <class T, class It>
constexpr int vector_items = can_copy_async<T, It> && sizeof(T) < 16 ? static_cast<int>(16 / sizeof(T)) : 1;

// Slots a tile buffer needs beyond its tile: the runs' alignment shifts (tile_layout_for) and
// the serial merge's padding (serial_merge_n reads up to ItemsPerThread + 1 slots past the b run).
template <int ItemsPerThread>
constexpr int tile_padding = 3 * 4 + ItemsPerThread + 1;

// Where `first` sits within its 16-byte piece, in elements: the shared-memory position that lets
// a run starting there move in whole pieces (0 where T cannot move that way).
template <class T, class It>
__device__ int address_residue(It first) {
  constexpr int v = vector_items<T, It>;
  if constexpr (v > 1)
    return static_cast<int>(reinterpret_cast<std::uintptr_t>(first) / sizeof(T) % v);
  else
    return 0;
}

// The first position at or after `slot` of a 16-byte aligned shared buffer of T whose address
// agrees with `first`'s modulo 16 bytes, so that a run starting there moves in whole 16-byte
// pieces: at most vector_items - 1 past slot (slot itself where T cannot move that way).
template <class T, class It>
__device__ int aligned_position(It first, int slot) {
  constexpr int v = vector_items<T, It>;
  return slot + ((address_residue<T>(first) - slot) % v + v) % v;
}

// Places the runs so that each one's shared address agrees with its global address modulo 16
// bytes, which lets both move in 16-byte pieces (a plain a-then-b layout where that cannot help).
template <class T, class AIt, class BIt>
__device__ tile_layout tile_layout_for(AIt a, int a_count, BIt b, int b_count) {
  constexpr int v = detail::min_of(vector_items<T, AIt>, vector_items<T, BIt>);
  if constexpr (v > 1) {
    int a_pos = address_residue<T>(a);
    int b_pos = (a_pos + a_count + v - 1) / v * v + address_residue<T>(b);
    return {a_pos, a_count, b_pos, b_count};
  } else {
    return {0, a_count, a_count, b_count};
  }
}

// A run of `count` elements bound for shared position `pos` of a 16-byte aligned buffer, cut
// where 16-byte pieces can move it: `head` elements before the first whole piece, `vectors`
// pieces of V elements, then fewer than V from `tail_begin` on.
struct piece_span {
  int head, vectors, tail_begin;

  template <int V>
  __device__ static piece_span of(int pos, int count) {
    const int head = detail::min_of((V - pos % V) % V, count);
    const int vectors = (count - head) / V;
    return {head, vectors, head + vectors * V};
  }
};

// The elements of a span that no whole piece covers, one a thread: buffer[slot(pos + j)] =
// from[j] for j before span.head and from span.tail_begin on.
template <class T, class It, class Slot>
__device__ void copy_span_ends_to_shared(It from, int count, T* buffer, int pos, const piece_span& span, Slot slot) {
  const int tid = static_cast<int>(threadIdx.x);
  if (tid < span.head) copy_element_to_shared(buffer + slot(pos + tid), from + tid);
  const int t = tid - span.head;
  if (t >= 0 && span.tail_begin + t < count)
    copy_element_to_shared(buffer + slot(pos + span.tail_begin + t), from + span.tail_begin + t);
}

// buffer[slot(pos + j)] = src[j] for j in [0, count), count <= MaxCount, cooperatively and
// coalesced; slot(i) is i in a plain buffer (RingSize 0) and i mod RingSize in a ring (pos <
// RingSize, count <= RingSize). Where src and its destination agree modulo 16 bytes, the middle
// moves in 16-byte pieces (a ring's size is a multiple of the piece, so none straddles its end)
// and only the ragged ends element by element. The copies may be asynchronous: commit, wait and
// __syncthreads() before reading.
template <int BlockThreads, int MaxCount, int RingSize = 0, class T, class It>
__device__ void copy_run_to_shared(It src, int count, T* buffer, int pos) {
  int tid = static_cast<int>(threadIdx.x);
  auto slot = [](int i) {
    if constexpr (RingSize > 0)
      return i >= RingSize ? i - RingSize : i;
    else
      return i;
  };
  constexpr int v = vector_items<T, It>;
  if constexpr (v > 1) {
    static_assert(RingSize % v == 0, "a 16-byte piece must never straddle a ring's end");
    const T* from = src;
    if ((reinterpret_cast<std::uintptr_t>(from) - reinterpret_cast<std::uintptr_t>(buffer + pos)) % 16 == 0) {
      const piece_span span = piece_span::of<v>(pos, count);
      // Both addresses advance by a constant each round: the loads' issue rate bounds the
      // search's tile kernel, and recomputing them from the piece index took ~14 instructions.
      constexpr int stride = BlockThreads * v;
      const T* next_from = from + span.head + tid * v;
      int next_slot = pos + span.head + tid * v;
      int left = span.vectors - tid;  // pieces from this thread's next one on
      constexpr int max_vectors = MaxCount / v + 1;
      MERGEPATH_UNROLL
      for (int i = 0; i < (max_vectors + BlockThreads - 1) / BlockThreads; ++i) {
        if (left > i * BlockThreads) __pipeline_memcpy_async(buffer + slot(next_slot), next_from, 16);
        next_from += stride;
        next_slot += stride;
      }
      copy_span_ends_to_shared(from, count, buffer, pos, span, slot);
      return;
    }
  }
  MERGEPATH_UNROLL
  for (int i = 0; i < (MaxCount + BlockThreads - 1) / BlockThreads; ++i) {
    int j = tid + i * BlockThreads;
    if (j < count) copy_element_to_shared(buffer + slot(pos + j), src + j);
  }
}

// One thread's ItemsPerThread consecutive slots of shared memory, shared[0, ItemsPerThread), in
// 16-byte pieces where the items fill whole pieces and `shared` is 16-byte aligned. A warp's
// element-wise accesses to a blocked layout fall ItemsPerThread slots apart, which for a power of
// two of 4-byte keys crowds them into a few banks (8 keys a thread: 8 lanes a bank).
template <int ItemsPerThread, class T>
__device__ void load_items_from_shared(const T* shared, T (&items)[ItemsPerThread]) {
  constexpr int bytes = ItemsPerThread * static_cast<int>(sizeof(T));
  if constexpr (bytes % 16 == 0 && std::is_trivially_copyable_v<T>) {
    if (reinterpret_cast<std::uintptr_t>(shared) % 16 == 0) {
      uint4 pieces[bytes / 16];
      MERGEPATH_UNROLL
      for (int p = 0; p < bytes / 16; ++p) pieces[p] = reinterpret_cast<const uint4*>(shared)[p];
      memcpy(items, pieces, bytes);
      return;
    }
  }
  MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) items[i] = shared[i];
}

template <int ItemsPerThread, class T>
__device__ void store_items_to_shared(const T (&items)[ItemsPerThread], T* shared) {
  constexpr int bytes = ItemsPerThread * static_cast<int>(sizeof(T));
  if constexpr (bytes % 16 == 0 && std::is_trivially_copyable_v<T>) {
    if (reinterpret_cast<std::uintptr_t>(shared) % 16 == 0) {
      uint4 pieces[bytes / 16];
      memcpy(pieces, items, bytes);
      MERGEPATH_UNROLL
      for (int p = 0; p < bytes / 16; ++p) reinterpret_cast<uint4*>(shared)[p] = pieces[p];
      return;
    }
  }
  MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) shared[i] = items[i];
}

// Each thread's ItemsPerThread consecutive results go to shared[ItemsPerThread * t + i].
template <int ItemsPerThread, class T>
__device__ void store_blocked_to_shared(const T (&items)[ItemsPerThread], T* shared) {
  store_items_to_shared(items, shared + ItemsPerThread * threadIdx.x);
}

// out[0, count) = shared[0, count), striped across threads so every warp store is coalesced.
// Where `out` and `shared` agree modulo 16 bytes (always, when both are 16-byte aligned), each
// thread moves 16 bytes at a time, and only the ragged ends element by element: a quarter of the
// load and store instructions, which is what bounds a merge's issue rate. evict_first stores
// those pieces evict-first in L2 (st.global.cs), for output that nothing reads back soon.
template <int BlockThreads, int ItemsPerThread, class T, class OutIt>
__device__ void store_shared_to_global(const T* shared, int count, OutIt out, bool evict_first = false) {
  int tid = static_cast<int>(threadIdx.x);
  // (The vector moves need out's elements to be T; others, e.g. widened bounds, convert one by one.)
  if constexpr (std::is_pointer_v<OutIt> && std::is_same_v<std::remove_cv_t<std::remove_pointer_t<OutIt>>, T> &&
                sizeof(T) < 16 && 16 % sizeof(T) == 0 && alignof(T) == sizeof(T)) {
    if ((reinterpret_cast<std::uintptr_t>(out) - reinterpret_cast<std::uintptr_t>(shared)) % 16 == 0) {
      constexpr int per_vector = 16 / sizeof(T);
      constexpr int max_vectors = (BlockThreads * ItemsPerThread + per_vector - 1) / per_vector;
      int residue = static_cast<int>(reinterpret_cast<std::uintptr_t>(out) / sizeof(T) % per_vector);
      int head = detail::min_of((per_vector - residue) % per_vector, count);  // before the first whole piece
      int vectors = (count - head) / per_vector;
      int tail_begin = head + vectors * per_vector;  // fewer than per_vector elements follow the last piece
      MERGEPATH_UNROLL
      for (int i = 0; i < (max_vectors + BlockThreads - 1) / BlockThreads; ++i) {
        int v = tid + i * BlockThreads;
        if (v >= vectors) continue;
        const uint4 piece = reinterpret_cast<const uint4*>(shared + head)[v];
        if (evict_first)
          __stcs(reinterpret_cast<uint4*>(out + head) + v, piece);
        else
          reinterpret_cast<uint4*>(out + head)[v] = piece;
      }
      if (tid < head) out[tid] = shared[tid];
      int t = tid - head;
      if (t >= 0 && tail_begin + t < count) out[tail_begin + t] = shared[tail_begin + t];
      return;
    }
  }
  MERGEPATH_UNROLL
  for (int i = 0; i < ItemsPerThread; ++i) {
    int j = tid + i * BlockThreads;
    if (j < count) out[j] = shared[j];
  }
}

// Copies `count` elements of `in` to `out` by the whole block, each thread issuing a batch of
// loads before storing any, so that their latencies overlap.
template <class T>
__device__ void copy_batched(const T* in, index_t count, T* out) {
  constexpr int batch = 8;
  for (index_t first = threadIdx.x; first < count; first += batch * static_cast<index_t>(blockDim.x)) {
    T loaded[batch];
    MERGEPATH_UNROLL
    for (int k = 0; k < batch; ++k) {
      index_t j = first + k * static_cast<index_t>(blockDim.x);
      if (j < count) loaded[k] = in[j];
    }
    MERGEPATH_UNROLL
    for (int k = 0; k < batch; ++k) {
      index_t j = first + k * static_cast<index_t>(blockDim.x);
      if (j < count) out[j] = loaded[k];
    }
  }
}

// dst[0, count) = src[0, count), global to global, coalesced; in 16-byte pieces where both
// pointers agree modulo 16 bytes.
template <int BlockThreads, class SrcIt, class DstIt>
__device__ void copy_global(SrcIt src, index_t count, DstIt dst) {
  using T = typename std::iterator_traits<SrcIt>::value_type;
  index_t tid = threadIdx.x;
  if constexpr (std::is_pointer_v<SrcIt> && std::is_pointer_v<DstIt> && sizeof(T) < 16 && 16 % sizeof(T) == 0 &&
                alignof(T) == sizeof(T)) {
    const T* from = src;
    if ((reinterpret_cast<std::uintptr_t>(from) - reinterpret_cast<std::uintptr_t>(dst)) % 16 == 0) {
      constexpr index_t per_vector = 16 / sizeof(T);
      index_t head = detail::min_of<index_t>(
          (per_vector - reinterpret_cast<std::uintptr_t>(from) / sizeof(T) % per_vector) % per_vector, count);
      index_t vectors = (count - head) / per_vector;
      for (index_t v = tid; v < vectors; v += BlockThreads)
        reinterpret_cast<uint4*>(dst + head)[v] = reinterpret_cast<const uint4*>(from + head)[v];
      if (tid < head) dst[tid] = from[tid];
      index_t tail = head + vectors * per_vector + tid;
      if (tid < per_vector && tail < count) dst[tail] = from[tail];
      return;
    }
  }
  for (index_t i = tid; i < count; i += BlockThreads) dst[i] = src[i];
}

}  // namespace block
}  // namespace mergepath
