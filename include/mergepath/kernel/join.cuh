// The join's search output on a GPU (a tile sink of the sorted search, kernel/sorted_search.cuh):
// each a row's lower bound in b, and where its output rows begin, the exclusive scan of every
// row's count, found in the search's own tiles (a block scan, then decoupled look-back for the
// tiles before) instead of by a scan pass over stored counts.
#pragma once

#include <cstdint>
#include <cub/agent/single_pass_scan_operators.cuh>
#include <cub/block/block_scan.cuh>
#include <iterator>

#include "../context.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../thread/join.hpp"

namespace mergepath {
namespace kernel {

using join_tile_state = cub::ScanTileState<index_t>;

// Readies the look-back status of num_tiles tiles (a thread a tile, as the status expects).
template <int = 0>
__global__ void join_tile_state_kernel(join_tile_state state, int num_tiles) {
  state.InitializeStatus(num_tiles);
}

// store_tile writes lowers[a0, a0 + n) and starts[a0, a0 + n) of its tile; the grid's last tile
// also starts[a_count] and *total, the whole count. starts are 32-bit: where *total exceeds
// INT32_MAX they are wrong, and the caller scans the counts again in 64 bits.
template <join_kind Kind, class Index, class AIt, class BIt, class Comp>
struct join_bounds_and_starts {
  using tile_sink = void;
  // The search stages each row's bound as a value_type.
  using value_type = index_t;
  using difference_type = index_t;
  using pointer = void;
  using reference = void;
  using iterator_category = std::output_iterator_tag;

  detail::join_row_counter<Kind, Index, AIt, BIt, Comp> row_count;
  index_t a_count;
  Index* lowers;
  std::int32_t* starts;
  index_t* total;
  mutable join_tile_state tile_state{};  // the look-back's calls are not const

  // The look-back status, in memory that lives as long as the returned buffer.
  temp_buffer<unsigned char> prepare(cuda_context& ctx, index_t num_tiles) {
    std::size_t bytes = 0;
    MERGEPATH_CUDA_CHECK(join_tile_state::AllocationSize(static_cast<int>(num_tiles), bytes));
    auto storage = ctx.allocate<unsigned char>(static_cast<index_t>(bytes));
    MERGEPATH_CUDA_CHECK(tile_state.Init(static_cast<int>(num_tiles), storage.data(), bytes));
    constexpr int threads = 256;
    detail::launch("join_tile_state_kernel", join_tile_state_kernel<>,
                   static_cast<unsigned>(detail::ceil_div<index_t>(num_tiles, threads)), threads, 0, ctx.stream(),
                   tile_state, static_cast<int>(num_tiles));
    return storage;
  }

  // Every thread of the tile calls it; results[0, n) holds the bounds of a[a0, a0 + n) and
  // becomes each row's count, then its start. Slot: 32-bit where b's count fits it (a count is at
  // most that; a start is stored 32-bit anyway), so the tile's results take half the shared
  // memory, and twice the tiles fit an SM.
  template <int Threads, int Items, class Slot>
  __device__ void store_tile(Slot* results, int n, index_t a0) const {
    using scan = cub::BlockScan<index_t, Threads>;
    using tile_prefix = cub::TilePrefixCallbackOp<index_t, plus<>, join_tile_state>;
    __shared__ typename scan::TempStorage scan_storage;
    __shared__ typename tile_prefix::TempStorage prefix_storage;
    __shared__ index_t tile_begin;
    // Across the threads in row order (coalesced): the bounds out, each count in its bound's slot.
    for (int k = threadIdx.x; k < n; k += Threads) {
      const index_t lower = detail::clamped_bound(results[k], row_count.b_count);  // unsorted input leaves gaps
      lowers[a0 + k] = static_cast<Index>(lower);
      results[k] = static_cast<Slot>(row_count(a0 + k, lower));
    }
    __syncthreads();
    // A run of Items rows a thread: its sum, the block's scan, warp 0's look-back.
    const int first = static_cast<int>(threadIdx.x) * Items;
    index_t sum = 0;
    MERGEPATH_UNROLL
    for (int k = 0; k < Items; ++k)
      if (first + k < n) sum += static_cast<index_t>(results[first + k]);
    index_t offset = 0, tile_total = 0;
    scan(scan_storage).ExclusiveSum(sum, offset, tile_total);
    const int tile = static_cast<int>(blockIdx.x);
    if (threadIdx.x < 32) {
      index_t prefix = 0;
      if (tile > 0)
        prefix = tile_prefix(tile_state, prefix_storage, plus<>{}, tile)(tile_total);
      else if (threadIdx.x == 0 && gridDim.x > 1)
        tile_state.SetInclusive(0, tile_total);
      if (threadIdx.x == 0) {
        tile_begin = prefix;
        if (tile == static_cast<int>(gridDim.x) - 1) {
          starts[a_count] = static_cast<std::int32_t>(prefix + tile_total);
          *total = prefix + tile_total;
        }
      }
    }
    __syncthreads();
    offset += tile_begin;
    MERGEPATH_UNROLL
    for (int k = 0; k < Items; ++k)
      if (first + k < n) {
        const auto count = static_cast<index_t>(results[first + k]);
        results[first + k] = static_cast<Slot>(offset);
        offset += count;
      }
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += Threads) starts[a0 + k] = static_cast<std::int32_t>(results[k]);
  }
};

}  // namespace kernel
}  // namespace mergepath
