// sorted_search and sorted_equality_count on a cuda_context: the merge's partition pass (with
// the search's tie rule), then one block per tile (kernel/sorted_search.cuh). Nothing
// synchronizes unless match counts are asked for or checked mode is on.
#pragma once

#include <cstdint>
#include <limits>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/merge.cuh"
#include "../kernel/sorted_search.cuh"
#include "../thread/serial_search.hpp"
#include "../tuning/sorted_search.hpp"
#include "check_sorted.cuh"
#include "merge.cuh"

namespace mergepath {
namespace device {

template <class Policy, bounds Bounds, search TypeA, search TypeB, bool NarrowStaging, class AIt, class BIt,
          class AOut, class BOut, class Comp>
match_counts launch_sorted_search_staged(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out,
                                         BOut b_out, Comp comp) {
  constexpr sorted_search_tuning tuning = Policy::tuning;
  constexpr bool counts_matches = reports_matches(TypeA) || reports_matches(TypeB);
  index_t total = a_count + b_count;
  if (total == 0) return {};
  index_t num_tiles = detail::ceil_div<index_t>(total, tuning.tile_items());

  constexpr auto tile_kernel =
      kernel::sorted_search_tile_kernel<Policy, Bounds, TypeA, TypeB, AIt, BIt, AOut, BOut, Comp, NarrowStaging>;
  constexpr std::size_t shared_bytes =
      kernel::search_layout_of<Policy, AIt, AOut, BOut, TypeA, TypeB, NarrowStaging>::bytes;
  int per_sm = resident_blocks_per_sm<tile_kernel>(ctx, tuning.block_threads, shared_bytes);  // and raises the limit
  [[maybe_unused]] temp_buffer<unsigned char> sink_state;
  if constexpr (kernel::is_tile_sink<AOut>) sink_state = a_out.prepare(ctx, num_tiles);

  // Up to self_partition_waves tiles per resident block, each block finds its own splits; beyond,
  // the partition pass finds them for all (tuning/sorted_search.hpp).
  index_t resident = static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount;
  // (Blocks that find their own splits agree only under a trusted order: block/slice_check.cuh.)
  constexpr bool trusted_order = block::order_is_trusted<kernel::value_of<AIt>, Comp> &&
                                 block::order_is_trusted<kernel::value_of<BIt>, Comp>;
  bool partition_pass = !trusted_order || num_tiles > tuning.self_partition_waves * resident;
  // The match counters are zero already (cuda_context::take_zeroed_counters), so nothing but
  // kernels lies between the partition pass and the tile kernel, which then overlap (programmatic
  // dependent launch).
  kernel::match_totals matches{nullptr, nullptr, 0};
  if constexpr (counts_matches)
    matches = {ctx.take_zeroed_counters(), ctx.result_words().device, ctx.next_result_sequence()};
  static_assert(kernel::match_totals::words <= cuda_context::zeroed_counter_count, "the context has the counters");
  {
    auto partitions = ctx.allocate<index_t>(partition_pass ? num_tiles + 1 : 0);
    temp_buffer<uint4> samples;
    if (partition_pass)
      samples = launch_merge_partition<Bounds, 1, tuning.partition_sample_bytes>(
          ctx, a, a_count, b, b_count, tuning.tile_items(), num_tiles + 1, partitions.data(), comp);

    detail::launch_dependent("sorted_search_tile_kernel", tile_kernel, static_cast<unsigned>(num_tiles),
                             tuning.block_threads, shared_bytes, ctx.stream(), a, a_count, b, b_count,
                             partition_pass ? partitions.data() : nullptr, a_out, b_out, matches, comp);
    if constexpr (counts_matches) {
      detail::launch_dependent("match_totals_kernel", kernel::match_totals_kernel<kernel::match_totals::slots>, 1,
                               64, 0, ctx.stream(), matches);
      ctx.counters_cleared();
    }
  }  // the scratch goes back to the pool (stream-ordered) before the host waits, not after
  if constexpr (!counts_matches) {
    return {};
  } else {
    ctx.wait_for_result_word(2, matches.sequence);
    const std::uint64_t* totals = ctx.result_words().host;
    match_counts sum;
    if constexpr (reports_matches(TypeA)) sum.a = static_cast<index_t>(totals[0]);
    if constexpr (reports_matches(TypeB)) sum.b = static_cast<index_t>(totals[1]);
    return sum;
  }
}

// a_out[i] = the bound of a[i] in b, one needle at a time (kernel::needle_search_kernel): for
// bounds of a few needles in a long b, through samples of b where b is less than
// needle_sample_max_ratio times longer than a and larger than L2 (needle_sample_min_l2_percent);
// without them beyond L2, sparing L1 (needle_l1_spare_bytes).
// Returns false, having launched nothing, where the search would take samples and b's keys are
// too large to sample.
template <class Policy, bounds Bounds, class AIt, class BIt, class AOut, class Comp>
bool launch_needle_search(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, Comp comp) {
  constexpr int threads = 256;
  using BKey = kernel::value_of<BIt>;
  using samples_layout = kernel::partition_samples<BKey, BKey>;
  constexpr index_t max_ratio = Policy::tuning.needle_sample_max_ratio;
  const bool beyond_l2 = static_cast<double>(b_count) * sizeof(BKey) >=
                         Policy::tuning.needle_sample_min_l2_percent / 100.0 * ctx.props().l2CacheSize;
  // b_count < max_ratio * a_count, without overflow (0: never).
  const bool sampled = max_ratio > 0 && b_count / (max_ratio > 0 ? max_ratio : 1) < a_count && beyond_l2;
  const int l1_spare_keys =
      !sampled && beyond_l2 ? Policy::tuning.needle_l1_spare_bytes / static_cast<int>(sizeof(BKey)) : 0;
  int shift = -1;  // unread without samples
  temp_buffer<uint4> samples;
  if (sampled) {
    shift = partition_sample_shift<Policy::tuning.partition_sample_bytes, BKey, BKey>(b_count, 0);
    if (shift < 0) return false;
    const samples_layout layout(b_count, 0, shift);
    samples = ctx.allocate<uint4>(static_cast<index_t>(layout.bytes() / sizeof(uint4)));
    constexpr int sample_threads = 128;
    detail::launch("merge_samples_kernel", kernel::merge_samples_kernel<BIt, BIt>,
                   static_cast<unsigned>(detail::ceil_div<index_t>(layout.a_count, sample_threads)), sample_threads, 0,
                   ctx.stream(), b, b_count, b, index_t{0}, shift, reinterpret_cast<unsigned char*>(samples.data()));
  }
  constexpr auto search_kernel = kernel::needle_search_kernel<threads, Bounds, AIt, BIt, AOut, Comp>;
  const int per_sm = resident_blocks_per_sm<search_kernel>(ctx, threads, 0);
  const index_t blocks = detail::min_of<index_t>(detail::ceil_div<index_t>(a_count, threads),
                                                 static_cast<index_t>(per_sm) * ctx.props().multiProcessorCount);
  detail::launch_dependent("needle_search_kernel", search_kernel, static_cast<unsigned>(blocks), threads, 0,
                           ctx.stream(), a, a_count, b, b_count, shift,
                           reinterpret_cast<const BKey*>(samples.data()), l1_spare_keys, a_out, comp);
  return true;
}

// a_out[i] = the bound of a[i] in b, by fixed tiles of b (kernel::b_tile_search_kernel): a pass
// finds each tile's needles, the tiles that have some search them, then a kernel stores the
// needles that piled up beyond a tile's worth (none for most inputs).
template <class Policy, bounds Bounds, class AIt, class BIt, class AOut, class Comp>
void launch_b_tile_search(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, Comp comp) {
  constexpr sorted_search_tuning tuning = Policy::tuning;
  constexpr int threads = tuning.b_tile_threads;
  constexpr int tile_keys = tuning.b_tile_bytes / static_cast<int>(sizeof(kernel::value_of<BIt>));
  static_assert(tile_keys > 0 && threads % block::warp_lanes == 0, "a tile holds keys; warps search its edges");
  const index_t num_tiles = detail::ceil_div<index_t>(b_count, tile_keys);
  auto firsts = ctx.allocate<index_t>(num_tiles + 1);
  const index_t capacity = a_count / tile_keys + 1;
  auto entries = ctx.allocate<kernel::b_tile_overflow>(capacity);
  auto entry_count = ctx.allocate<int>(1);
  const kernel::b_tile_overflow_list overflow{entry_count.data(), entries.data(), static_cast<int>(capacity)};

  constexpr int edge_threads = 256;
  detail::launch("b_tile_needles_kernel", kernel::b_tile_needles_kernel<edge_threads, Bounds, AIt, BIt, Comp>,
                 static_cast<unsigned>(detail::ceil_div<index_t>((num_tiles + 1) * block::warp_lanes, edge_threads)),
                 edge_threads, 0, ctx.stream(), a, a_count, b, index_t{tile_keys}, num_tiles, firsts.data(), overflow,
                 comp);
  detail::launch_dependent("b_tile_search_kernel",
                           kernel::b_tile_search_kernel<threads, tile_keys, Bounds, AIt, BIt, AOut, Comp>,
                           static_cast<unsigned>(num_tiles), threads, 0, ctx.stream(), a, b, b_count,
                           static_cast<const index_t*>(firsts.data()), overflow, a_out, comp);
  constexpr auto overflow_kernel = kernel::b_tile_overflow_kernel<threads, Bounds, AIt, BIt, AOut, Comp>;
  const int per_sm = resident_blocks_per_sm<overflow_kernel>(ctx, threads, 0);
  detail::launch_dependent("b_tile_overflow_kernel", overflow_kernel,
                           static_cast<unsigned>(per_sm * ctx.props().multiProcessorCount), threads, 0, ctx.stream(), a,
                           b, overflow, a_out, comp);
}

// Policy with the Merge Path tiles of large searches (sorted_search_tuning::large_items_per_thread).
template <class Policy>
struct large_search_policy {
  static constexpr sorted_search_tuning tuning = [] {
    sorted_search_tuning t = Policy::tuning;
    t.items_per_thread = t.large_items_per_thread;
    t.large_items_per_thread = 0;
    return t;
  }();
};

// The Merge Path search, in the tuning's large tiles where the inputs are long enough.
template <class Policy, bounds Bounds, search TypeA, search TypeB, bool NarrowStaging, class AIt, class BIt, class AOut,
          class BOut, class Comp>
match_counts launch_sorted_search_tiles(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out,
                                        BOut b_out, Comp comp) {
  if constexpr (Policy::tuning.large_items_per_thread > 0)
    if (a_count + b_count >= Policy::tuning.large_min_total)
      return launch_sorted_search_staged<large_search_policy<Policy>, Bounds, TypeA, TypeB, NarrowStaging>(
          ctx, a, a_count, b, b_count, a_out, b_out, comp);
  return launch_sorted_search_staged<Policy, Bounds, TypeA, TypeB, NarrowStaging>(ctx, a, a_count, b, b_count, a_out,
                                                                                  b_out, comp);
}

// Which searches plain bounds of a few needles take before the Merge Path's tiles: one needle at
// a time (tried first; it declines b's keys too large to sample), then b's tiles.
struct plain_bounds_paths {
  bool needles, b_tiles;
};
// b_tiles from b_tile_ratio where b is long, one needle at a time from needle_search_ratio, and
// from b_tile_ratio where b is shorter (tuning/sorted_search.hpp).
template <class Policy, class BKey>
plain_bounds_paths plain_bounds_paths_for(const cuda_context& ctx, index_t a_count, index_t b_count) {
  constexpr int needle_ratio = Policy::tuning.needle_search_ratio;
  constexpr int b_tile_ratio = Policy::tuning.b_tile_ratio;
  // (Divisors of at least 1 where a ratio is 0, off: nvcc warns of a division by zero otherwise.)
  const bool needles_fit = needle_ratio > 0 && a_count > 0 && b_count / detail::max_of(needle_ratio, 1) >= a_count;
  const bool tiles_fit = b_tile_ratio > 0 && a_count > 0 && b_count / detail::max_of(b_tile_ratio, 1) >= a_count;
  const bool b_long = static_cast<double>(b_count) * sizeof(BKey) >=
                      Policy::tuning.b_tile_min_l2_percent / 100.0 * ctx.props().l2CacheSize;
  return {needles_fit || (tiles_fit && !b_long && needle_ratio > 0), tiles_fit && b_long};
}

// The search, its 64-bit integer bounds staged as 32-bit ones where every bound fits them
// (kernel::search_staging); plain bounds of a few needles in a long b one needle at a time, of
// more needles by b's tiles.
template <class Policy, bounds Bounds, search TypeA, search TypeB, class AIt, class BIt, class AOut, class BOut,
          class Comp>
match_counts launch_sorted_search(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out,
                                  BOut b_out, Comp comp) {
  constexpr index_t narrow_max = std::numeric_limits<std::uint32_t>::max();
  if constexpr (TypeA == search::index && TypeB == search::none && !kernel::is_tile_sink<AOut>) {
    const plain_bounds_paths paths = plain_bounds_paths_for<Policy, kernel::value_of<BIt>>(ctx, a_count, b_count);
    // b's tiles find their needles by searches of their own: only under a trusted order
    // (block/slice_check.cuh); one needle at a time writes each bound once under any.
    constexpr bool trusted_order = block::order_is_trusted<kernel::value_of<AIt>, Comp> &&
                                   block::order_is_trusted<kernel::value_of<BIt>, Comp>;
    if ((paths.needles || (!trusted_order && paths.b_tiles)) &&
        launch_needle_search<Policy, Bounds>(ctx, a, a_count, b, b_count, a_out, comp))
      return {};
    if (trusted_order && paths.b_tiles) {
      launch_b_tile_search<Policy, Bounds>(ctx, a, a_count, b, b_count, a_out, comp);
      return {};
    }
  }
  if constexpr (kernel::stages_narrow<TypeA, TypeB, AOut, BOut>)
    if (a_count <= narrow_max && b_count <= narrow_max)
      return launch_sorted_search_tiles<Policy, Bounds, TypeA, TypeB, true>(ctx, a, a_count, b, b_count, a_out, b_out,
                                                                            comp);
  return launch_sorted_search_tiles<Policy, Bounds, TypeA, TypeB, false>(ctx, a, a_count, b, b_count, a_out, b_out,
                                                                         comp);
}

// The complete search of sorted_search.hpp on a cuda_context, arguments already checked: Policy
// names the tuning (a type with `static constexpr sorted_search_tuning tuning`), by default the one
// for the key and for the results as they are staged when the counts fit 32 bits (the common case
// the shape serves).
template <bounds Bounds, search TypeA, search TypeB, class Policy = default_tuning, class AIt, class BIt, class AOut,
          class BOut, class Comp>
match_counts sorted_search(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, AOut a_out, BOut b_out,
                           Comp comp) {
  constexpr bool reports = reports_matches(TypeA) || reports_matches(TypeB);
  constexpr std::size_t result_bytes = detail::max_of(sizeof(kernel::search_staged_t<TypeA, AOut, true>),
                                                      sizeof(kernel::search_staged_t<TypeB, BOut, true>));
  using tuned = detail::tuning_or<Policy, default_sorted_search_policy<kernel::value_of<AIt>, reports, result_bytes>>;
  return launch_sorted_search<tuned, Bounds, TypeA, TypeB>(ctx, a, a_count, b, b_count, a_out, b_out, comp);
}

// counts[i] = op(lower_bounds[i], upper bound of a[i] in b): the upper-bound search writes through
// an output that applies op, so the counts cost no extra pass.
template <class AIt, class BIt, class LowerIt, class OutIt, class Comp, class Op>
void sorted_equality_count(cuda_context& ctx, AIt a, index_t a_count, BIt b, index_t b_count, LowerIt lower_bounds,
                           OutIt counts, Comp comp, Op op) {
  launch_sorted_search<default_sorted_search_policy<kernel::value_of<AIt>>, bounds::upper, search::index, search::none>(
      ctx, a, a_count, b, b_count, detail::equality_count_output<LowerIt, OutIt, Op>{lower_bounds, counts, op}, nullptr,
      comp);
}

}  // namespace device

namespace backend {
using device::sorted_equality_count;
using device::sorted_search;
}  // namespace backend
}  // namespace mergepath
