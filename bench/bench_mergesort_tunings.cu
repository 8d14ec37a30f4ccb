// Tuning variants of mergepath::mergesort (--tunings): the same sorts of int32 keys, and of int32
// pairs, with the cluster sort off or at other tiles, so one run compares them beside CUB. A translation
// unit of its own: every tile is a kernel instantiation, and this file compiles in parallel with
// bench_mergesort.cu.
#include <string>
#include <tuple>

#include "bench_mergesort.cuh"

namespace bench {
namespace {

// The default tuning with the cluster sort at other tiles, used up to 2^MaxLog2 keys (0 threads:
// no cluster sort, every sort starts with the blocksort), and self_partition_waves (0: a partition
// kernel before every two-way pass).
template <int ValueBytes, int ClusterThreads, int ClusterItems, int MaxLog2 = 26, int SelfPartitionWaves = 1>
struct cluster_policy {
  static constexpr mergepath::mergesort_tuning tuning = [] {
    mergepath::mergesort_tuning t = mergepath::mergesort_tuning_for(90, sizeof(std::int32_t), ValueBytes, true);
    t.cluster_sort = {ClusterThreads, ClusterItems, 8, ClusterThreads > 0 ? mergepath::index_t{1} << MaxLog2 : 0};
    t.small_cluster_sort = {};  // the row's tile at every size
    t.self_partition_waves = SelfPartitionWaves;
    return t;
  }();
};
template <int... Shape>
using keys_policy = cluster_policy<0, Shape...>;
template <int... Shape>
using pairs_policy = cluster_policy<sizeof(std::int32_t), Shape...>;

// Where the cluster sort pays, and at which tile.
using keys4_policies = std::tuple<keys_policy<0, 0>, keys_policy<512, 9>, keys_policy<512, 17>, keys_policy<256, 15>,
                                  keys_policy<1024, 9>, keys_policy<512, 9, 19, 0>, keys_policy<512, 17, 20>>;
using pairs4_policies = std::tuple<pairs_policy<0, 0>, pairs_policy<512, 9>, pairs_policy<256, 9>, pairs_policy<128, 9>,
                                   pairs_policy<256, 5>,
                                   pairs_policy<512, 15>, pairs_policy<512, 9, 19, 0>>;

// The cluster sort's tile and reach, and whether every two-way pass has a partition kernel.
std::string tuning_label(const mergepath::mergesort_tuning& t) {
  const mergepath::cluster_sort_tuning& c = t.cluster_sort;
  std::string label =
      !c.enabled() ? "cluster off"
                   : "cluster {" + std::to_string(c.block_threads) + "," + std::to_string(c.items_per_thread) +
                         "} to 2^" + std::to_string(63 - __builtin_clzll(static_cast<unsigned long long>(c.max_count)));
  return t.self_partition_waves == 0 ? label + ", partition kernels" : label;
}

template <class Policy>
void keys_row(sort_case<std::int32_t>& c) {
  using kind = sort_case<std::int32_t>::row_kind;
  using lands = sort_case<std::int32_t>::lands;
  constexpr mergepath::mergesort_tuning t = Policy::tuning;
  c.keys_row(
      "mergepath::mergesort_tuned " + tuning_label(t), kind::ours, lands::in_place,
      [&](int s) { mergepath::mergesort<Policy>(c.b.ctx, c.keys(s), c.n); }, t);
}

template <class Policy>
void pairs_row(sort_case<std::int32_t>& c) {
  using kind = sort_case<std::int32_t>::row_kind;
  using lands = sort_case<std::int32_t>::lands;
  constexpr mergepath::mergesort_tuning t = Policy::tuning;
  c.pairs_row(
      "mergepath::mergesort_pairs_tuned " + tuning_label(t), kind::ours, lands::in_place,
      [&](int s) { mergepath::mergesort_pairs<Policy>(c.b.ctx, c.keys(s), c.values(s), c.n); }, t);
}

template <class... Policies>
void keys_rows(sort_case<std::int32_t>& c, std::tuple<Policies...>*) {
  (keys_row<Policies>(c), ...);
}
template <class... Policies>
void pairs_rows(sort_case<std::int32_t>& c, std::tuple<Policies...>*) {
  (pairs_row<Policies>(c), ...);
}

}  // namespace

void mergesort_tuning_rows(sort_case<std::int32_t>& c) { keys_rows(c, static_cast<keys4_policies*>(nullptr)); }
void mergesort_pairs_tuning_rows(sort_case<std::int32_t>& c) { pairs_rows(c, static_cast<pairs4_policies*>(nullptr)); }

}  // namespace bench
