// The textbook's ladder of merge kernels (Programming Massively Parallel Processors ch. 12; the
// ECE 508 lecture), kept to show what each step buys:
//  basic:    every thread finds its output slice's co-rank in global memory and merges from there;
//  tiled:    a block finds its section's co-rank once, then loads tiles of A and B into shared
//            memory and merges from there (coalesced loads, but half of each load is thrown away);
//  circular: as tiled, but the tiles are circular buffers refilled with only what was consumed.
// All three use the library's merge_path and serial_merge; only the data movement differs.
#pragma once

#include "../block/ring.cuh"
#include "../detail/config.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"

namespace mergepath {
namespace kernel {

template <class AIt, class BIt, class OutIt, class Comp>
__global__ void textbook_merge_basic_kernel(AIt a, index_t a_count, BIt b, index_t b_count, OutIt out,
                                            index_t items_per_thread, Comp comp) {
  index_t total = a_count + b_count;
  index_t thread = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  index_t k0 = detail::min_of(thread * items_per_thread, total);
  index_t k1 = detail::min_of(k0 + items_per_thread, total);
  if (k0 == k1) return;
  index_t i0 = merge_path(a, a_count, b, b_count, k0, comp);
  index_t i1 = clamp_next_split(i0, merge_path(a, a_count, b, b_count, k1, comp), k0, k1);
  serial_merge(a + i0, i1 - i0, b + (k0 - i0), (k1 - i1) - (k0 - i0), out + k0, comp);
}

// Tiled and circular kernels share everything but how the tiles are refilled. Each block owns
// output section [section * blockIdx.x, ...) and walks it TileItems outputs at a time.
template <int BlockThreads, int TileItems, bool Circular, class AIt, class BIt, class OutIt, class Comp>
__global__ void textbook_merge_tiled_kernel(AIt a, index_t a_count, BIt b, index_t b_count, OutIt out,
                                            index_t section_items, Comp comp) {
  using T = typename std::iterator_traits<AIt>::value_type;
  static_assert(TileItems % BlockThreads == 0, "each thread merges a whole share of a tile");
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* a_tile = reinterpret_cast<T*>(shared_bytes);
  T* b_tile = a_tile + TileItems;
  __shared__ index_t block_split[2];

  index_t total = a_count + b_count;
  index_t c0 = detail::min_of(blockIdx.x * section_items, total);
  index_t c1 = detail::min_of(c0 + section_items, total);
  if (threadIdx.x == 0) {  // one thread searches global memory for the whole block
    block_split[0] = merge_path(a, a_count, b, b_count, c0, comp);
    block_split[1] = clamp_next_split(block_split[0], merge_path(a, a_count, b, b_count, c1, comp), c0, c1);
  }
  __syncthreads();
  index_t a0 = block_split[0], b0 = c0 - a0;
  int a_length = static_cast<int>(block_split[1] - a0);
  int c_length = static_cast<int>(c1 - c0);
  int b_length = c_length - a_length;

  int a_done = 0, b_done = 0, c_done = 0;
  int a_start = 0, b_start = 0;        // circular: where the unconsumed data begins in the ring
  int a_buffered = 0, b_buffered = 0;  // circular: unconsumed elements already in the ring
  while (c_done < c_length) {
    int a_in_tile = detail::min_of(TileItems, a_length - a_done);
    int b_in_tile = detail::min_of(TileItems, b_length - b_done);
    // Refill: the tiled kernel reloads whole tiles, the circular one only the consumed slots.
    for (int j = a_buffered + static_cast<int>(threadIdx.x); j < a_in_tile; j += BlockThreads) {
      int slot = Circular ? (a_start + j) % TileItems : j;
      a_tile[slot] = a[a0 + a_done + j];
    }
    for (int j = b_buffered + static_cast<int>(threadIdx.x); j < b_in_tile; j += BlockThreads) {
      int slot = Circular ? (b_start + j) % TileItems : j;
      b_tile[slot] = b[b0 + b_done + j];
    }
    __syncthreads();

    block::circular_view<T> a_view{a_tile, a_start, TileItems}, b_view{b_tile, b_start, TileItems};
    int c_in_tile = detail::min_of(TileItems, c_length - c_done);
    constexpr int per_thread = TileItems / BlockThreads;
    int k0 = detail::min_of(static_cast<int>(threadIdx.x) * per_thread, c_in_tile);
    int k1 = detail::min_of(k0 + per_thread, c_in_tile);
    int i0 = merge_path(a_view, a_in_tile, b_view, b_in_tile, k0, comp);
    int i1 = clamp_next_split(i0, merge_path(a_view, a_in_tile, b_view, b_in_tile, k1, comp), k0, k1);
    serial_merge(a_view + i0, i1 - i0, b_view + (k0 - i0), (k1 - i1) - (k0 - i0), out + (c0 + c_done + k0), comp);
    // Every thread works out how much of each input the tile consumed (the textbook's way).
    int a_used = merge_path(a_view, a_in_tile, b_view, b_in_tile, c_in_tile, comp);
    int b_used = c_in_tile - a_used;
    __syncthreads();  // all reads of the tiles are done before they are refilled

    a_done += a_used;
    b_done += b_used;
    c_done += c_in_tile;
    if (Circular) {
      a_start = (a_start + a_used) % TileItems;
      b_start = (b_start + b_used) % TileItems;
      a_buffered = a_in_tile - a_used;
      b_buffered = b_in_tile - b_used;
    }
  }
}

}  // namespace kernel
}  // namespace mergepath
