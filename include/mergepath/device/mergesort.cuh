// mergesort and mergesort_pairs on a cuda_context: a blocksort launch (or, up to a few tiles a
// run, a cluster sort), then per merge pass (four- or two-way) a partition launch and a merge
// launch, ping-ponging between the caller's arrays and scratch arrays from the context's pool. The
// first pass writes to whichever buffer makes the last pass land in the caller's arrays. No
// launch waits for the host.
#pragma once

#include <type_traits>

#include "../context.hpp"
#include "../detail/backend.hpp"
#include "../detail/launch.cuh"
#include "../error.hpp"
#include "../functional.hpp"
#include "../kernel/mergesort.cuh"
#include "../tuning/mergesort.hpp"
#include "merge.cuh"
#include "tuning_family.cuh"

namespace mergepath {
namespace device {

// Scratch for a sort's values: an array from the context's pool, or nothing for keys only.
template <class Vals>
struct value_scratch {
  temp_buffer<kernel::value_of<Vals>> buffer;
  value_scratch(cuda_context& ctx, index_t count) : buffer(ctx.allocate<kernel::value_of<Vals>>(count)) {}
  kernel::value_of<Vals>* data() const { return buffer.data(); }
};
template <>
struct value_scratch<kernel::no_values> {
  value_scratch(cuda_context&, index_t) {}
  kernel::no_values data() const { return {}; }
};

// Sorts keys_in[0, count) (and vals_in) into keys (and vals); keys_in may be keys: the blocksort,
// the only pass that reads the input, holds each tile in shared memory before it writes.
template <class Policy, class KeysIn, class ValsIn, class Keys, class Vals, class Comp>
void launch_mergesort(cuda_context& ctx, KeysIn keys_in, ValsIn vals_in, Keys keys, Vals vals, index_t count,
                      Comp comp) {
  constexpr mergesort_tuning tuning = Policy::tuning;
  constexpr int merge_tile = tuning.merge.tile_items();
  if (count == 0) return;
  if constexpr (std::is_same_v<KeysIn, Keys>)
    if (count == 1 && keys_in == keys) return;  // sorted in place already

  // The first pass leaves sorted runs of sort_tile keys: one tile of the blocksort, or a cluster's
  // tiles (a power of two of them, as few as cover the keys), at the small sorts' tile up to its
  // max_count.
  // Clusters only where the cluster sort's code was compiled for them (a build for less leaves
  // its merges out) and the device launches them.
  // An order that is not trusted (block/slice_check.cuh) takes the plain blocksort and two-way
  // passes with partition kernels, the paths whose splits are checked and repaired: a cluster's
  // rounds, the four-way splits and self-partitioned tiles are not yet.
  constexpr bool trusted_order = block::order_is_trusted<kernel::value_of<Keys>, Comp>;
  const bool has_clusters =
      trusted_order && ctx.launches_clusters() && detail::takes_hopper_launch(detail::running_code_arch());
  const bool small_clustered =
      tuning.small_cluster_sort.enabled() && count <= tuning.small_cluster_sort.max_count && has_clusters;
  const bool clustered =
      small_clustered || (tuning.cluster_sort.enabled() && count <= tuning.cluster_sort.max_count && has_clusters);
  const cluster_sort_tuning cluster = small_clustered ? tuning.small_cluster_sort : tuning.cluster_sort;
  int cluster_blocks = 1;
  if (clustered)
    while (cluster_blocks < cluster.max_cluster_blocks &&
           static_cast<index_t>(cluster_blocks) * cluster.tile_items() < count)
      cluster_blocks *= 2;
  const index_t sort_tile = clustered ? static_cast<index_t>(cluster_blocks) * cluster.tile_items()
                                      : static_cast<index_t>(tuning.blocksort.tile_items());

  // The passes after the blocksort: four-way while more than two runs are left (where the tuning
  // has four-way tiles and the sort is large enough), then two-way. Their number decides where
  // the blocksort writes, and the widest ones size the split arrays.
  const bool four_way = trusted_order && tuning.four_way.enabled() && count >= tuning.four_way.min_count;
  auto ways_at = [&](index_t width) { return four_way && 2 * width < count ? 4 : 2; };
  auto two_way_pass = [&](index_t width) {
    return kernel::merge_pass{count, width, detail::ceil_div<index_t>(2 * width, merge_tile), merge_tile};
  };
  auto four_way_pass = [&](index_t width) {
    constexpr int tile = tuning.four_way.tile_items();
    return kernel::merge4_pass{count, width, detail::ceil_div<index_t>(4 * width, tile), tile};
  };
  int passes = 0;
  index_t max_two_way_tiles = 0, max_four_way_tiles = 0;
  for (index_t width = sort_tile; width < count; width *= ways_at(width), ++passes) {
    if (ways_at(width) == 4)
      max_four_way_tiles = detail::max_of(max_four_way_tiles, four_way_pass(width).num_tiles());
    else
      max_two_way_tiles = detail::max_of(max_two_way_tiles, two_way_pass(width).num_tiles());
  }

  auto key_scratch = ctx.allocate<kernel::value_of<Keys>>(passes > 0 ? count : 0);
  value_scratch<Vals> val_scratch(ctx, passes > 0 ? count : 0);
  auto partitions = ctx.allocate<index_t>(max_two_way_tiles);
  auto splits = ctx.allocate<index_t>(kernel::merge4_pass::ways * max_four_way_tiles);

  // The cluster sort at the tile of ClusterPolicy's cluster_sort (cluster_policy: a null ClusterPolicy*).
  auto cluster_sort_into = [&](auto cluster_policy, auto keys_out, auto vals_out) {
    using ClusterPolicy = std::remove_pointer_t<decltype(cluster_policy)>;
    constexpr auto sort_kernel =
        kernel::cluster_sort_kernel<ClusterPolicy, KeysIn, ValsIn, decltype(keys_out), decltype(vals_out), Comp>;
    constexpr std::size_t shared_bytes = kernel::cluster_sort_layout<ClusterPolicy, KeysIn, ValsIn>::bytes;
    (void)resident_blocks_per_sm<sort_kernel>(ctx, cluster.block_threads, shared_bytes);
    const index_t clusters = detail::ceil_div(count, sort_tile);
    detail::launch_clustered("cluster_sort_kernel", sort_kernel, static_cast<unsigned>(clusters * cluster_blocks),
                             cluster.block_threads, shared_bytes, ctx.stream(), static_cast<unsigned>(cluster_blocks),
                             keys_in, vals_in, count, keys_out, vals_out, comp);
  };
  auto blocksort_into = [&](auto keys_out, auto vals_out) {
    if constexpr (Policy::tuning.small_cluster_sort.enabled()) {
      if (small_clustered)
        return cluster_sort_into(static_cast<kernel::small_cluster_sort_policy<Policy>*>(nullptr), keys_out, vals_out);
    }
    if constexpr (Policy::tuning.cluster_sort.enabled()) {
      if (clustered) return cluster_sort_into(static_cast<Policy*>(nullptr), keys_out, vals_out);
    }
    constexpr auto sort_kernel =
        kernel::blocksort_kernel<Policy, KeysIn, ValsIn, decltype(keys_out), decltype(vals_out), Comp>;
    constexpr std::size_t shared_bytes = kernel::blocksort_layout<Policy, KeysIn, ValsIn>::bytes;
    (void)resident_blocks_per_sm<sort_kernel>(ctx, tuning.blocksort.block_threads, shared_bytes);
    detail::launch_dependent("blocksort_kernel", sort_kernel, static_cast<unsigned>(detail::ceil_div(count, sort_tile)),
                             tuning.blocksort.block_threads, shared_bytes, ctx.stream(), keys_in, vals_in, count,
                             keys_out, vals_out, comp);
  };
  // Samples of all the keys for the two-way partition kernels, every 2^shift-th, as many as fit
  // the tuning's sample bytes (none for keys too large to sample).
  using Key = kernel::value_of<Keys>;
  using samples_layout = kernel::partition_samples<Key, Key>;
  const int sample_shift = partition_sample_shift<tuning.merge.partition_sample_bytes, Key, Key>(count, 0);
  auto samples = ctx.allocate<uint4>(
      sample_shift >= 0 && max_two_way_tiles > 0
          ? static_cast<index_t>(samples_layout(count, 0, sample_shift).bytes() / sizeof(uint4))
          : 0);

  auto merge_two_way = [&](index_t width, auto keys_in, auto vals_in, auto keys_out, auto vals_out) {
    const kernel::merge_pass pass = two_way_pass(width);
    index_t tiles = pass.num_tiles();
    using InKeys = decltype(keys_in);
    using InVals = decltype(vals_in);
    constexpr auto merge_kernel =
        kernel::mergesort_merge_kernel<Policy, InKeys, InVals, decltype(keys_out), decltype(vals_out), Comp>;
    constexpr std::size_t shared_bytes =
        kernel::merge_layout_of<kernel::merge_pass_policy<Policy>, InKeys, InVals>::bytes;
    const index_t resident =
        static_cast<index_t>(resident_blocks_per_sm<merge_kernel>(ctx, tuning.merge.block_threads, shared_bytes)) *
        ctx.props().multiProcessorCount;
    // Small passes: each block searches its own splits (mergesort_tuning::self_partition_waves).
    if (trusted_order && tiles <= tuning.self_partition_waves * resident) {
      detail::launch_dependent("mergesort_merge_kernel", merge_kernel, static_cast<unsigned>(tiles),
                               tuning.merge.block_threads, shared_bytes, ctx.stream(), keys_in, vals_in, pass,
                               static_cast<const index_t*>(nullptr), keys_out, vals_out, comp);
      return;
    }
    // The early passes' short runs are searched in global memory alone.
    const bool sampled = kernel::pass_uses_samples(pass, sample_shift, tuning.min_sampled_run);
    std::size_t sample_bytes = 0;
    if (sampled) {
      // An ordinary launch: started early beside the merge kernel before it (programmatic
      // dependent launch), the sample kernel made each pass slower
      // (docs/design/merge-and-mergesort.md#what-was-tried).
      samples_layout layout(count, 0, sample_shift);
      sample_bytes = layout.bytes();
      constexpr int sample_threads = 128;
      detail::launch("merge_samples_kernel", kernel::merge_samples_kernel<decltype(keys_in), decltype(keys_in)>,
                     static_cast<unsigned>(detail::ceil_div<index_t>(layout.a_count, sample_threads)), sample_threads,
                     0, ctx.stream(), keys_in, count, keys_in, index_t{0}, sample_shift,
                     reinterpret_cast<unsigned char*>(samples.data()));
    }
    constexpr int partition_threads = 128;
    detail::launch_dependent("mergesort_partition_kernel", kernel::mergesort_partition_kernel<decltype(keys_in), Comp>,
                             static_cast<unsigned>(detail::ceil_div<index_t>(tiles, partition_threads)),
                             partition_threads, sample_bytes, ctx.stream(), keys_in, pass, sampled ? sample_shift : -1,
                             static_cast<const uint4*>(samples.data()), partitions.data(), ctx.split_repair_ticket(),
                             comp);
    detail::launch_dependent("mergesort_merge_kernel", merge_kernel, static_cast<unsigned>(tiles),
                             tuning.merge.block_threads, shared_bytes, ctx.stream(), keys_in, vals_in, pass,
                             partitions.data(), keys_out, vals_out, comp);
  };

  auto merge_four_way = [&](index_t width, auto keys_in, auto vals_in, auto keys_out, auto vals_out) {
    if constexpr (Policy::tuning.four_way.enabled()) {
      const kernel::merge4_pass pass = four_way_pass(width);
      const index_t tiles = pass.num_tiles();
      // Four lanes a split; whole warps.
      constexpr int partition_threads = 128;
      const auto partition_kernel = kernel::four_way_fits_int(pass)
                                        ? kernel::mergesort_partition4_kernel<decltype(keys_in), int, Comp>
                                        : kernel::mergesort_partition4_kernel<decltype(keys_in), index_t, Comp>;
      detail::launch_dependent(
          "mergesort_partition4_kernel", partition_kernel,
          static_cast<unsigned>(detail::ceil_div<index_t>(kernel::merge4_pass::ways * tiles, partition_threads)),
          partition_threads, 0, ctx.stream(), keys_in, pass, splits.data(), comp);
      using InKeys = decltype(keys_in);
      using InVals = decltype(vals_in);
      constexpr auto merge_kernel =
          kernel::mergesort_merge4_kernel<Policy, InKeys, InVals, decltype(keys_out), decltype(vals_out), Comp>;
      constexpr std::size_t shared_bytes =
          kernel::merge4_layout<Policy, kernel::value_of<InKeys>, kernel::value_of<InVals>>::bytes;
      (void)resident_blocks_per_sm<merge_kernel>(ctx, tuning.four_way.block_threads, shared_bytes);
      detail::launch_dependent("mergesort_merge4_kernel", merge_kernel, static_cast<unsigned>(tiles),
                               tuning.four_way.block_threads, shared_bytes, ctx.stream(), keys_in, vals_in, pass,
                               static_cast<const index_t*>(splits.data()), keys_out, vals_out, comp);
    }
  };

  // Passes alternate direction, so an odd count starts from the scratch arrays.
  bool in_scratch = passes % 2 == 1;
  if (in_scratch)
    blocksort_into(key_scratch.data(), val_scratch.data());
  else
    blocksort_into(keys, vals);
  for (index_t width = sort_tile; width < count; width *= ways_at(width), in_scratch = !in_scratch) {
    auto merge = [&](auto keys_in, auto vals_in, auto keys_out, auto vals_out) {
      if (ways_at(width) == 4)
        merge_four_way(width, keys_in, vals_in, keys_out, vals_out);
      else
        merge_two_way(width, keys_in, vals_in, keys_out, vals_out);
    };
    if (in_scratch)
      merge(key_scratch.data(), val_scratch.data(), keys, vals);
    else
      merge(keys, vals, key_scratch.data(), val_scratch.data());
  }
}

// The calls of mergesort.hpp on a cuda_context, arguments already checked: Policy names the
// tuning (a type with `static constexpr mergesort_tuning tuning`), by default the one of the
// architecture family the kernels run as.
template <class Policy = default_tuning, class KeysIt, class ValsIt, class Comp>
void sort_keys_and_values(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp) {
  if constexpr (std::is_same_v<Policy, default_tuning>) {
    detail::with_tuning_family([&](auto family) {
      launch_mergesort<mergesort_policy_for<kernel::value_of<KeysIt>, kernel::value_of<ValsIt>, family>>(
          ctx, keys, vals, keys, vals, count, comp);
    });
  } else {
    launch_mergesort<Policy>(ctx, keys, vals, keys, vals, count, comp);
  }
}

template <class Policy = default_tuning, class KeysIt, class Comp>
void mergesort(cuda_context& ctx, KeysIt keys, index_t count, Comp comp) {
  sort_keys_and_values<Policy>(ctx, keys, kernel::no_values{}, count, comp);
}

template <class Policy = default_tuning, class KeysIt, class ValsIt, class Comp>
void mergesort_pairs(cuda_context& ctx, KeysIt keys, ValsIt vals, index_t count, Comp comp) {
  sort_keys_and_values<Policy>(ctx, keys, vals, count, comp);
}

}  // namespace device

namespace backend {
using device::mergesort;
using device::mergesort_pairs;
}  // namespace backend
}  // namespace mergepath
