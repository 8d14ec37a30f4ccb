// mergesort and mergesort_pairs on a cuda_context: the suites of suites/mergesort.hpp (at sizes on
// every merge-pass boundary of the default tunings), and what only the GPU backend has (small
// custom tunings that make many passes, the default tunings' four-way passes at scale, a sort
// captured in a CUDA graph, the four-way split, a comparator that is not an order).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <limits>
#include <mergepath/block/group_multiway_split.cuh>
#include <mergepath/mergepath.hpp>
#include <mergepath/thread/multiway_split.hpp>
#include <random>
#include <vector>

#include "gpu_util.cuh"
#include "suites/mergesort.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, Mergesort, on_gpu<mergesort_cases>);

// ---------------------------------------------------------------------------------------------
// Tuning is overridable: tiles so small that the suite's sizes take many merge passes.

// 192-key blocksort tiles, 320-key merge tiles, 315-key four-way tiles: 2^20 keys take 6 four-way
// passes and a two-way one. Every two-way pass has a partition kernel (self_partition_waves 0),
// and those whose runs start on samples narrow their searches with them (min_sampled_run 0), so
// the suite's sizes cover sampled and unsampled passes. (The other policies' small passes find
// their own splits.)
struct small_policy {
  static constexpr mergepath::mergesort_tuning tuning{{64, 3}, {64, 5}, 0, {64, 5, 1536, 0}, {}, 0};
};
// Two-way passes only: an even items_per_thread, a merge tile smaller than the blocksort tile, a
// single warp.
struct even_policy {
  static constexpr mergepath::mergesort_tuning tuning{{32, 4}, {32, 3}};
};
// One-warp four-way tiles (217 keys) longer than the blocksort's (160).
struct one_warp_four_way_policy {
  static constexpr mergepath::mergesort_tuning tuning{{32, 5}, {32, 3}, index_t{1} << 20, {32, 7, 1024, 0}};
};

// Cluster sorts of 64 x 3 tiles, clusters of up to 8, to 2^20 keys: runs of 1536 keys, then
// four-way passes.
struct cluster_policy {
  static constexpr mergepath::mergesort_tuning tuning{{64, 3}, {64, 5}, 0, {64, 5, 1536, 0}, {64, 3, 8, 1 << 20}};
};
// Clusters of up to 2 tiles of 64 x 3 to 400 keys (a merge pass after them from 385), then of
// up to 4 tiles of 64 x 5 to 5000 keys; beyond, the blocksort and two-way passes.
struct small_cluster_policy {
  static constexpr mergepath::mergesort_tuning tuning = [] {
    mergepath::mergesort_tuning t{{32, 5}, {32, 3}, index_t{1} << 20, {}, {64, 5, 4, 5000}};
    t.small_cluster_sort = {64, 3, 2, 400};
    return t;
  }();
};

template <class Policy>
class GpuMergesortTuned : public gpu_test {};
using policies =
    ::testing::Types<small_policy, even_policy, one_warp_four_way_policy, cluster_policy, small_cluster_policy>;
TYPED_TEST_SUITE(GpuMergesortTuned, policies);

template <class Policy>
std::vector<index_t> tuned_sizes() {
  return gpu_sort_sizes(Policy::tuning, 12);
}

TYPED_TEST(GpuMergesortTuned, Keys) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(
        check_sort(ctx, make_sort_keys<int>(c), mergepath::less<>{},
                   [](auto& ctx, auto keys, index_t n) { mergepath::mergesort<TypeParam>(ctx, keys, n); }));
  }
}

// 1- and 2-byte keys: a four-way tile's pieces sit up to 15 slots apart in shared memory.
TYPED_TEST(GpuMergesortTuned, NarrowKeys) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(
        check_sort(ctx, make_sort_keys<std::uint8_t>(c), mergepath::less<>{},
                   [](auto& ctx, auto keys, index_t n) { mergepath::mergesort<TypeParam>(ctx, keys, n); }));
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs<std::int16_t, int>(
        ctx, make_sort_keys<std::int16_t>(c), mergepath::greater<>{}, [](auto& ctx, auto keys, auto vals, index_t n) {
          mergepath::mergesort_pairs<TypeParam>(ctx, keys, vals, n, mergepath::greater<>{});
        })));
  }
}

// point keys tied on x: stability shows in the keys and in the values.
TYPED_TEST(GpuMergesortTuned, Pairs) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs<point, int>(
        ctx, make_sort_keys<point>(c), point_x_less{}, [](auto& ctx, auto keys, auto vals, index_t n) {
          mergepath::mergesort_pairs<TypeParam>(ctx, keys, vals, n, point_x_less{});
        })));
  }
}

// Tuned calls check their arguments as the default ones do (SortCalls), before any work.
TYPED_TEST(GpuMergesortTuned, BadArgumentsThrow) {
  mergepath::cuda_context ctx;
  const std::vector<int> unsorted{3, 1, 2};
  device_vector<int> keys(unsorted);
  int* const null = nullptr;
  expect_invalid_argument([&] { mergepath::mergesort<TypeParam>(ctx, keys.data(), -2); },
                          "mergepath::mergesort: keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs<TypeParam>(ctx, keys.data(), null, 3); },
                          "mergepath::mergesort_pairs: vals is a null pointer");
  EXPECT_EQ(keys.download(), unsorted);
}

// The default tunings make four-way passes only from four_way.min_count keys on (2^23): one sort
// there and one past it (a last group of one run), for keys, pairs and 8-byte keys; and the
// cluster sort's last size and the next.
class GpuMergesortFourWay : public gpu_test {};

// Also the last size of the cluster sort and the first after it.
template <class Key, class Value = void>
std::vector<index_t> four_way_sizes() {
  constexpr mergepath::mergesort_tuning t = mergepath::default_mergesort_policy<Key, Value>::tuning;
  static_assert(t.four_way.enabled(), "these default tunings have four-way passes");
  static_assert(t.cluster_sort.max_count < t.four_way.min_count, "the cluster sort ends before the four-way passes");
  return sorted_unique_capped({t.cluster_sort.max_count, t.cluster_sort.max_count + 1, t.four_way.min_count - 1,
                               t.four_way.min_count + 4 * t.blocksort.tile_items() + 1});
}

TEST_F(GpuMergesortFourWay, DefaultTuningsAtScale) {
  mergepath::cuda_context ctx;
  for (index_t n : four_way_sizes<int>()) {
    sort_case c{n, distribution::uniform, case_seed({n, 31})};
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_sort(ctx, make_sort_keys<int>(c), mergepath::less<>{},
                                       [](auto& ctx, auto keys, index_t n) { mergepath::mergesort(ctx, keys, n); }));
  }
  for (index_t n : four_way_sizes<int, int>()) {
    sort_case c{n, distribution::few_distinct, case_seed({n, 32})};
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs<int, int>(
        ctx, make_sort_keys<int>(c), mergepath::less<>{},
        [](auto& ctx, auto keys, auto vals, index_t n) { mergepath::mergesort_pairs(ctx, keys, vals, n); })));
  }
  for (index_t n : four_way_sizes<std::int64_t>()) {
    sort_case c{n, distribution::uniform, case_seed({n, 33})};
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_sort(
        ctx, make_sort_keys<std::int64_t>(c), mergepath::greater<>{},
        [](auto& ctx, auto keys, index_t n) { mergepath::mergesort(ctx, keys, n, mergepath::greater<>{}); }));
  }
}

// ---------------------------------------------------------------------------------------------
// A CUDA graph: a sort of keys and one of pairs captured once, replayed on new data each time.

class GpuMergesortGraph : public gpu_test {};

TEST_F(GpuMergesortGraph, SortCapturedInGraph) {
  mergepath::cuda_context ctx;
  // Five blocksort tiles plus a little: three merge passes, the last pair's second run short.
  const index_t n = 5 * mergepath::default_mergesort_policy<int>::tuning.blocksort.tile_items() + 17;
  device_vector<int> keys(n), pair_keys(n), vals(n);

  captured_graph graph(ctx.stream(), [&] {
    mergepath::mergesort(ctx, keys.data(), n);
    mergepath::mergesort_pairs(ctx, pair_keys.data(), vals.data(), n, mergepath::greater<>{});
  });
  const std::vector<int> origin = origins<int>(n, 0);
  for (distribution d : {distribution::uniform, distribution::few_distinct}) {
    sort_case c{n, d, case_seed({n, static_cast<int>(d), 22})};
    SCOPED_TRACE(c.name());
    std::vector<int> in = make_sort_keys<int>(c);
    graph.upload(keys.data(), in);
    graph.upload(pair_keys.data(), in);
    graph.upload(vals.data(), origin);
    graph.launch();
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_stable_sort(in, mergepath::less<>{}), keys.download()));
    auto expected = std_stable_sort_pairs<int, int>(in, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, pair_keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
  }
}

// ---------------------------------------------------------------------------------------------
// The four-way passes' split: four lanes per selection against multiway_split on the host (itself
// checked against a stable sort in test_merge_path.cpp).

// splits[4 q + r] for query q: whole warps, lane r of each group of four holding sequence r.
__global__ void group_split_kernel(const int* keys, const index_t* begins, const index_t* counts, index_t total_ranks,
                                   index_t* splits) {
  const index_t thread = blockIdx.x * static_cast<index_t>(blockDim.x) + threadIdx.x;
  const index_t rank = thread / 4;
  const int r = static_cast<int>(thread % 4);
  const bool live = rank < total_ranks;
  mergepath::block::group_multiway_selection<4, const int*, index_t, mergepath::less<>> selection(
      keys + begins[r], live ? counts[r] : 0, mergepath::less<>{});
  const index_t split = selection.split(live ? rank : 0);
  if (live) splits[4 * rank + r] = split;
}

class GpuMultiwaySplit : public gpu_test {};

TEST_F(GpuMultiwaySplit, GroupSelectionMatchesThreadSelection) {
  std::mt19937_64 rng(11);
  // Lengths: empty sequences, one element, unequal lengths, powers of two either side; values
  // from two (many ties) or 10^6 distinct. Sorted, except for the last trials (unsorted runs
  // must stay in bounds and sum to the rank).
  const std::vector<std::vector<index_t>> shapes{{0, 0, 0, 0},   {1, 0, 0, 0},     {0, 0, 0, 5},   {3, 1, 4, 1},
                                                 {63, 64, 65, 1}, {100, 0, 37, 511}, {257, 255, 256, 1000},
                                                 {4096, 1, 4095, 2049}};
  for (int unsorted = 0; unsorted < 2; ++unsorted)
    for (int distinct : {2, 1000000})
      for (const auto& shape : shapes) {
        SCOPED_TRACE(::testing::Message() << "lengths " << shape[0] << " " << shape[1] << " " << shape[2] << " "
                                          << shape[3] << ", values " << distinct << ", unsorted " << unsorted);
        std::vector<int> keys;
        std::vector<index_t> begins, counts;
        std::vector<const int*> host_seqs;
        for (index_t length : shape) {
          begins.push_back(static_cast<index_t>(keys.size()));
          counts.push_back(length);
          std::vector<int> run(static_cast<std::size_t>(length));
          for (int& x : run) x = std::uniform_int_distribution<int>(0, distinct - 1)(rng);
          if (!unsorted) std::sort(run.begin(), run.end());
          keys.insert(keys.end(), run.begin(), run.end());
        }
        keys.push_back(0);  // never empty on the device
        const index_t total = counts[0] + counts[1] + counts[2] + counts[3];
        const index_t ranks = total + 1;
        device_vector<int> d_keys(keys);
        device_vector<index_t> d_begins(begins), d_counts(counts), d_splits(static_cast<std::size_t>(4 * ranks));
        const unsigned blocks = static_cast<unsigned>((4 * ranks + 127) / 128);
        group_split_kernel<<<blocks, 128>>>(d_keys.data(), d_begins.data(), d_counts.data(), ranks, d_splits.data());
        MERGEPATH_CUDA_CHECK(cudaGetLastError());
        const std::vector<index_t> got = d_splits.download();
        const int* seqs[4];
        index_t lengths[4];
        for (int r = 0; r < 4; ++r) seqs[r] = keys.data() + begins[r], lengths[r] = counts[r];
        for (index_t rank = 0; rank <= total; ++rank) {
          index_t sum = 0;
          for (int r = 0; r < 4; ++r) {
            const index_t split = got[static_cast<std::size_t>(4 * rank + r)];
            ASSERT_GE(split, 0) << "rank " << rank;
            ASSERT_LE(split, counts[r]) << "rank " << rank;
            sum += split;
          }
          ASSERT_EQ(sum, rank);
          if (unsorted) continue;
          index_t want[4];
          mergepath::multiway_split<4>(seqs, lengths, rank, want, mergepath::less<>{});
          for (int r = 0; r < 4; ++r) ASSERT_EQ(got[static_cast<std::size_t>(4 * rank + r)], want[r]) << "rank " << rank;
        }
      }
}

// ---------------------------------------------------------------------------------------------
// A comparator that is not a strict weak order (less on floats with NaNs): the runs the passes
// merge are then not sorted, so the splits need not grow. The result is unspecified, but the sort
// must stay in bounds (compute-sanitizer runs this suite) and leave the context usable.

class GpuMergesortNaN : public gpu_test {};

template <class Policy>
void sort_with_nans(mergepath::cuda_context& ctx, index_t n) {
  SCOPED_TRACE(::testing::Message() << "n = " << n);
  std::vector<float> in(static_cast<std::size_t>(n));
  std::mt19937 rng(3);
  for (float& x : in)
    x = rng() % 3 == 0 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(rng() % 1000);
  device_vector<float> keys(in), pair_keys(in);
  device_vector<int> vals(static_cast<std::size_t>(n));
  mergepath::mergesort<Policy>(ctx, keys.data(), n);
  mergepath::mergesort_pairs<Policy>(ctx, pair_keys.data(), vals.data(), n);
  ctx.synchronize();
  // Still usable: a well-ordered sort afterwards is right.
  std::vector<float> finite(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) finite[i] = static_cast<float>(i * 7919 % 1013);
  keys.upload(finite);
  mergepath::mergesort<Policy>(ctx, keys.data(), n);
  EXPECT_TRUE(ranges_equal(std_stable_sort(finite, mergepath::less<>{}), keys.download()));
}

TEST_F(GpuMergesortNaN, StaysInBounds) {
  mergepath::cuda_context ctx;
  // Small tiles: four four-way passes and a two-way one at a size the sanitizers run.
  ASSERT_NO_FATAL_FAILURE(sort_with_nans<small_policy>(ctx, 5 * 4096 + 3));
  const index_t n = 9 * mergepath::default_mergesort_policy<float>::tuning.blocksort.tile_items() + 5;
  if (n <= max_test_size())
    ASSERT_NO_FATAL_FAILURE(sort_with_nans<mergepath::default_mergesort_policy<float>>(ctx, n));
}

}  // namespace
}  // namespace mergepath_test
