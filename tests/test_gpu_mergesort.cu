// mergesort and mergesort_pairs on a cuda_context, against std::stable_sort: key types,
// comparators, distributions and sizes on every merge-pass boundary; small custom tunings that
// make many passes; a sort captured in a CUDA graph; argument errors.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <vector>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

// Sizes on the edges of a GPU sort with blocksort tile `sort_tile` and merge tile `merge_tile`:
// the host's sizes; a merge tile either side; then 2^k blocksort tiles either side for k = 0 ..
// max_doublings (one more tile makes one more merge pass, odd and even pass counts alternate
// which buffer the blocksort writes), three tiles (a last pair with no second run), and a tile
// plus a merge tile (a pair whose output ends in a partial merge tile).
inline std::vector<index_t> gpu_sort_sizes(index_t sort_tile, index_t merge_tile, int max_doublings) {
  std::vector<index_t> sizes = sort_sizes();
  for (index_t edge : {merge_tile, 3 * sort_tile, sort_tile + merge_tile})
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  for (int k = 0; k <= max_doublings; ++k) {
    index_t edge = sort_tile << k;
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  return sorted_unique_capped(sizes);
}

// The sizes for the default tuning of these types: the edges up to 2^5 blocksort tiles (up to 6
// merge passes); the largest size, 2^20 + 7, takes a few more.
template <class Key, class Value = void>
std::vector<index_t> default_gpu_sort_sizes() {
  constexpr mergepath::mergesort_tuning tuning = mergepath::default_mergesort_policy<Key, Value>::tuning;
  return gpu_sort_sizes(tuning.blocksort.tile_items(), tuning.merge.tile_items(), 5);
}

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int64_t, mergepath::greater<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::greater<>>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

template <class Case>
class GpuMergesort : public gpu_test {};
TYPED_TEST_SUITE(GpuMergesort, key_cases);

TYPED_TEST(GpuMergesort, MatchesStdStableSort) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(default_gpu_sort_sizes<Key>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort(ctx, make_sort_keys<Key>(c), Comp{}, [](auto& ctx, auto keys, index_t n) {
      mergepath::mergesort(ctx, keys, n, Comp{});
    }));
  }
}

// 8-, 16- and 12-byte pairs: three default tunings.
using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<point, std::int32_t, point_x_less>>;

template <class Case>
class GpuMergesortPairs : public gpu_test {};
TYPED_TEST_SUITE(GpuMergesortPairs, pair_cases);

TYPED_TEST(GpuMergesortPairs, StableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(default_gpu_sort_sizes<Key, Value>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs<Key, Value>(
        ctx, make_sort_keys<Key>(c), Comp{},
        [](auto& ctx, auto keys, auto vals, index_t n) { mergepath::mergesort_pairs(ctx, keys, vals, n, Comp{}); })));
  }
}

// ---------------------------------------------------------------------------------------------
// Tuning is overridable: tiles so small that the suite's sizes take many merge passes.

// 192-key blocksort tiles, 320-key merge tiles: 2^20 keys take 13 passes. Every pass whose runs
// start on samples narrows its partition searches with them (min_sampled_run 0), so the suite's
// sizes cover sampled and unsampled passes.
struct small_policy {
  static constexpr mergepath::mergesort_tuning tuning{{64, 3}, {64, 5}, 0};
};
// An even items_per_thread, a merge tile smaller than the blocksort tile, a single warp.
struct even_policy {
  static constexpr mergepath::mergesort_tuning tuning{{32, 4}, {32, 3}};
};

template <class Policy>
class GpuMergesortTuned : public gpu_test {};
using policies = ::testing::Types<small_policy, even_policy>;
TYPED_TEST_SUITE(GpuMergesortTuned, policies);

template <class Policy>
std::vector<index_t> tuned_sizes() {
  return gpu_sort_sizes(Policy::tuning.blocksort.tile_items(), Policy::tuning.merge.tile_items(), 12);
}

TYPED_TEST(GpuMergesortTuned, Keys) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(
        check_gpu_sort(ctx, make_sort_keys<int>(c), mergepath::less<>{},
                       [](auto& ctx, auto keys, index_t n) { mergepath::mergesort_tuned<TypeParam>(ctx, keys, n); }));
  }
}

// point keys tied on x: stability shows in the keys and in the values.
TYPED_TEST(GpuMergesortTuned, Pairs) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs<point, int>(
        ctx, make_sort_keys<point>(c), point_x_less{}, [](auto& ctx, auto keys, auto vals, index_t n) {
          mergepath::mergesort_pairs_tuned<TypeParam>(ctx, keys, vals, n, point_x_less{});
        })));
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

  cudaGraph_t graph = nullptr;
  MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(ctx.stream(), cudaStreamCaptureModeGlobal));
  try {
    mergepath::mergesort(ctx, keys.data(), n);
    mergepath::mergesort_pairs(ctx, pair_keys.data(), vals.data(), n, mergepath::greater<>{});
  } catch (...) {
    (void)cudaStreamEndCapture(ctx.stream(), &graph);  // leave the stream usable, then report
    if (graph) (void)cudaGraphDestroy(graph);
    throw;
  }
  MERGEPATH_CUDA_CHECK(cudaStreamEndCapture(ctx.stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  MERGEPATH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));

  const std::vector<int> origin = origins<int>(n, 0);
  for (distribution d : {distribution::uniform, distribution::few_distinct}) {
    sort_case c{n, d, case_seed({n, static_cast<int>(d), 22})};
    SCOPED_TRACE(c.name());
    std::vector<int> in = make_sort_keys<int>(c);
    // New data, ordered before the replay on the same stream.
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(keys.data(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(pair_keys.data(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(vals.data(), origin.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_stable_sort(in, mergepath::less<>{}), keys.download()));
    auto expected = std_stable_sort_pairs<int, int>(in, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, pair_keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
  }
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before any work (the data stays as it was).

class GpuMergesortArguments : public gpu_test {};

TEST_F(GpuMergesortArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::cuda_context ctx;
  const std::vector<int> unsorted{3, 1, 2};
  device_vector<int> keys(unsorted), vals(unsorted);
  int* null = nullptr;
  expect_invalid_argument([&] { mergepath::mergesort(ctx, keys.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_tuned<small_policy>(ctx, keys.data(), -2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, keys.data(), vals.data(), -1); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, null, vals.data(), 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_pairs(ctx, keys.data(), null, 3); }, "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::mergesort_pairs_tuned<small_policy>(ctx, keys.data(), null, 3); },
                          "vals is a null pointer");
  ctx.synchronize();
  EXPECT_EQ(keys.download(), unsorted);
  EXPECT_EQ(vals.download(), unsorted);
  // Null pointers with a zero count are fine.
  EXPECT_NO_THROW(mergepath::mergesort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::mergesort_pairs(ctx, null, null, 0));
  ctx.synchronize();
}

}  // namespace
}  // namespace mergepath_test
