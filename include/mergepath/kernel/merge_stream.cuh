// The streamed GPU merge (keys): a persistent grid in which block b merges one contiguous chunk
// of the output. It finds the chunk's split with one global merge_path, then walks the chunk a
// tile at a time through two shared-memory rings (one per input) that hold the next tile's
// worth of each run. A tile's split is found in shared memory, so no partition pass over global
// memory is needed, and the refill for the next tile (exactly what this one consumed) is in
// flight while this tile is merged. The textbook's circular-buffer kernel, register-blocked.
#pragma once

#include "../block/block_merge.cuh"
#include "../block/ring.cuh"
#include "../block/tile_io.cuh"
#include "../detail/config.hpp"
#include "../thread/merge_path.hpp"
#include "../thread/serial_merge.hpp"
#include "../tuning/merge.hpp"
#include "merge.cuh"

namespace mergepath {
namespace kernel {

// Shared memory of a streamed merge block: two rings of two tiles each (the tile being merged
// and the refill landing behind it), and the staging area for coalesced stores.
template <class Key, int TileItems>
struct merge_stream_layout {
  static constexpr int ring_items = (2 * TileItems + 3) / 4 * 4;  // a multiple of any 16-byte vector
  static constexpr std::size_t ring_bytes = (sizeof(Key) * ring_items + 15) / 16 * 16;
  static constexpr std::size_t staging_bytes = (sizeof(Key) * TileItems + 15) / 16 * 16;
  static constexpr std::size_t bytes = 2 * ring_bytes + staging_bytes;
};

template <class Policy, class AIt, class BIt, class OutIt, class Comp>
__global__ void __launch_bounds__(Policy::tuning.block_threads, Policy::tuning.min_blocks_per_sm())
    merge_stream_kernel(AIt a, index_t a_count, BIt b, index_t b_count, OutIt out, index_t chunk_items, Comp comp) {
  constexpr merge_tuning tuning = Policy::tuning;
  constexpr int threads = tuning.block_threads;
  constexpr int items = tuning.items_per_thread;
  constexpr int tile_items = tuning.tile_items();
  using Key = value_of<AIt>;
  using Layout = merge_stream_layout<Key, tile_items>;
  constexpr int ring_items = Layout::ring_items;

  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Key* a_ring = reinterpret_cast<Key*>(shared_bytes);
  Key* b_ring = reinterpret_cast<Key*>(shared_bytes + Layout::ring_bytes);
  Key* staging = reinterpret_cast<Key*>(shared_bytes + 2 * Layout::ring_bytes);
  __shared__ index_t chunk_split[2];

  index_t total = a_count + b_count;
  index_t c0 = detail::min_of(blockIdx.x * chunk_items, total);
  index_t c1 = detail::min_of(c0 + chunk_items, total);
  // The only global searches: where this chunk starts and ends (two warps search side by side).
  if (threadIdx.x == 0) chunk_split[0] = merge_path(a, a_count, b, b_count, c0, comp);
  if (threadIdx.x == 32 % threads) chunk_split[1] = merge_path(a, a_count, b, b_count, c1, comp);
  __syncthreads();
  index_t a_lo = chunk_split[0];
  index_t a_hi = clamp_next_split(a_lo, chunk_split[1], c0, c1);
  index_t b_lo = c0 - a_lo;
  int a_length = static_cast<int>(a_hi - a_lo);
  int out_length = static_cast<int>(c1 - c0);
  int b_length = out_length - a_length;

  // Run positions relative to the chunk: consumed [0, *_used), in the ring [*_used, *_loaded).
  int a_used = 0, b_used = 0, a_loaded = 0, b_loaded = 0, out_done = 0;
  const int a_slot0 = block::address_residue<Key>(a + a_lo);
  const int b_slot0 = block::address_residue<Key>(b + b_lo);
  auto slot = [](int slot0, int position) { return (slot0 + position) % ring_items; };
  // Brings each run's ring up to one tile past what is consumed.
  auto refill = [&]() {
    int a_want = detail::min_of(a_used + tile_items, a_length);
    int b_want = detail::min_of(b_used + tile_items, b_length);
    block::copy_run_to_shared<threads, tile_items, ring_items>(a + (a_lo + a_loaded), a_want - a_loaded, a_ring,
                                                               slot(a_slot0, a_loaded));
    block::copy_run_to_shared<threads, tile_items, ring_items>(b + (b_lo + b_loaded), b_want - b_loaded, b_ring,
                                                               slot(b_slot0, b_loaded));
    block::commit_copies();
    a_loaded = a_want;
    b_loaded = b_want;
  };

  refill();
  while (out_done < out_length) {
    block::wait_for_copies<0>();
    __syncthreads();  // the rings hold this tile's window; staging is free again

    int a_window = a_loaded - a_used, b_window = b_loaded - b_used;
    int tile_count = detail::min_of(tile_items, out_length - out_done);
    block::circular_view<Key> a_view{a_ring, slot(a_slot0, a_used), ring_items};
    block::circular_view<Key> b_view{b_ring, slot(b_slot0, b_used), ring_items};
    // Every thread finds the tile's split (same addresses across a warp: broadcasts), so the
    // refill behind the window can start before the merge.
    int a_take = merge_path(a_view, a_window, b_view, b_window, tile_count, comp);
    a_used += a_take;
    b_used += tile_count - a_take;
    refill();

    int diag = detail::min_of(items * static_cast<int>(threadIdx.x), tile_count);
    int a_split = merge_path(a_view, a_take, b_view, tile_count - a_take, diag, comp);
    Key merged[items];
    serial_merge_n<items>(a_view, a_split, a_take, b_view, diag - a_split, tile_count - a_take, merged, comp);
    block::store_blocked_to_shared(merged, staging);
    __syncthreads();
    block::store_shared_to_global<threads, items>(staging, tile_count, out + (c0 + out_done));
    out_done += tile_count;
  }
}

}  // namespace kernel
}  // namespace mergepath
