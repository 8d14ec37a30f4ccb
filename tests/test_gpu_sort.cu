// sort, sort_pairs and their copying forms on a cuda_context against std::stable_sort: the radix
// path (arithmetic keys under less / greater, from radix_min_count keys and below the small edges
// of tuning/sort.hpp) and the merge path (every other case), sizes either side of every edge,
// signed zeros, a policy that always takes the radix path (0 and 1 keys), and both paths captured
// in a CUDA graph.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <vector>

#include "gpu_util.cuh"

namespace mergepath_test {
namespace {

// Edges beyond this (4-byte keys reach radix at 2^23) get a test of their own, uniform keys only
// (RadixEdgeOfFourByteKeys), not the sweep of every distribution.
constexpr index_t sweep_edge_max = index_t{1} << 21;

template <class Key, class Value = void>
std::vector<index_t> crossover_sizes() {
  constexpr mergepath::sort_tuning t = mergepath::default_sort_policy<Key, Value>::tuning;
  const index_t edge = t.radix_min_count;
  std::vector<index_t> sizes = sort_sizes();
  if (edge <= sweep_edge_max) sizes.insert(sizes.end(), {edge - 1, edge, edge + 1, 4 * edge + 3});
  for (index_t small : {t.radix_max_small_count, t.radix_max_small_copy_count})
    if (small > 0) sizes.insert(sizes.end(), {small - 1, small, small + 1});
  return sorted_unique_capped(sizes);
}

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int64_t, mergepath::greater<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<float, mergepath::greater<>>,
                     keys_case<double, mergepath::less<>>,
                     // no radix order: always the merge sort
                     keys_case<point, point_x_less>>;

template <class Case>
class GpuSort : public gpu_test {};
TYPED_TEST_SUITE(GpuSort, key_cases);

TYPED_TEST(GpuSort, MatchesStdStableSort) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(crossover_sizes<Key>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort(ctx, make_sort_keys<Key>(c), Comp{}, [](auto& ctx, auto keys, index_t n) {
      mergepath::sort(ctx, keys, n, Comp{});
    }));
  }
}

TYPED_TEST(GpuSort, CopyMatchesStdStableSort) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(crossover_sizes<Key>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort_copy(ctx, make_sort_keys<Key>(c), Comp{},
                                                [](auto& ctx, auto in, index_t n, auto out) {
                                                  mergepath::sort_copy(ctx, in, n, out, Comp{});
                                                }));
  }
}

using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<float, std::int32_t, mergepath::less<>>,
                                    pairs_case<point, std::int32_t, point_x_less>>;

template <class Case>
class GpuSortPairs : public gpu_test {};
TYPED_TEST_SUITE(GpuSortPairs, pair_cases);

TYPED_TEST(GpuSortPairs, StableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(crossover_sizes<Key, Value>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs<Key, Value>(
        ctx, make_sort_keys<Key>(c), Comp{},
        [](auto& ctx, auto keys, auto vals, index_t n) { mergepath::sort_pairs(ctx, keys, vals, n, Comp{}); })));
  }
}

TYPED_TEST(GpuSortPairs, CopyStableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(crossover_sizes<Key, Value>())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs_copy<Key, Value>(
        ctx, make_sort_keys<Key>(c), Comp{}, [](auto& ctx, auto keys, auto vals, index_t n, auto keys_out,
                                                auto vals_out) {
          mergepath::sort_pairs_copy(ctx, keys, vals, n, keys_out, vals_out, Comp{});
        })));
  }
}

// The radix path from the first key on: empty and one-key sorts, odd sizes, narrow keys, and
// 8-byte keys alone (which the default tuning merge-sorts at every size).
struct always_radix {
  static constexpr mergepath::sort_tuning tuning{0};
};

class GpuSortRadixPath : public gpu_test {};

TEST_F(GpuSortRadixPath, EverySize) {
  mergepath::cuda_context ctx;
  for (const sort_case& c : sort_cases(sort_sizes())) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(
        check_gpu_sort(ctx, make_sort_keys<int>(c), mergepath::less<>{},
                       [](auto& ctx, auto keys, index_t n) { mergepath::sort<always_radix>(ctx, keys, n); }));
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort(
        ctx, make_sort_keys<double>(c), mergepath::greater<>{},
        [](auto& ctx, auto keys, index_t n) { mergepath::sort<always_radix>(ctx, keys, n, mergepath::greater<>{}); }));
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs<std::int16_t, std::int64_t>(
        ctx, make_sort_keys<std::int16_t>(c), mergepath::greater<>{}, [](auto& ctx, auto keys, auto vals, index_t n) {
          mergepath::sort_pairs<always_radix>(ctx, keys, vals, n, mergepath::greater<>{});
        })));
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort_copy(
        ctx, make_sort_keys<int>(c), mergepath::less<>{},
        [](auto& ctx, auto in, index_t n, auto out) { mergepath::sort_copy<always_radix>(ctx, in, n, out); }));
    ASSERT_NO_FATAL_FAILURE((check_gpu_sort_pairs_copy<std::int16_t, std::int64_t>(
        ctx, make_sort_keys<std::int16_t>(c), mergepath::greater<>{},
        [](auto& ctx, auto keys, auto vals, index_t n, auto keys_out, auto vals_out) {
          mergepath::sort_pairs_copy<always_radix>(ctx, keys, vals, n, keys_out, vals_out, mergepath::greater<>{});
        })));
  }
}

// sort_copy with the output equal to the input sorts in place, on both paths.
// Keys-only sorts of 4-byte keys merge-sort up to 2^23 keys: each side of that edge, in place and
// into other arrays.
TEST_F(GpuSortRadixPath, RadixEdgeOfFourByteKeys) {
  constexpr index_t edge = mergepath::default_sort_policy<std::uint32_t>::tuning.radix_min_count;
  static_assert(edge > sweep_edge_max, "the sweep covers this edge");
  mergepath::cuda_context ctx;
  for (index_t n : {edge - 1, edge, edge + 1}) {
    if (n > max_test_size()) continue;
    const sort_case c{n, distribution::uniform, case_seed({n, 23})};
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort(ctx, make_sort_keys<std::uint32_t>(c), mergepath::less<>{},
                                           [](auto& ctx, auto keys, index_t n) { mergepath::sort(ctx, keys, n); }));
    ASSERT_NO_FATAL_FAILURE(check_gpu_sort_copy(ctx, make_sort_keys<float>(c), mergepath::greater<>{},
                                                [](auto& ctx, auto in, index_t n, auto out) {
                                                  mergepath::sort_copy(ctx, in, n, out, mergepath::greater<>{});
                                                }));
  }
}

TEST_F(GpuSortRadixPath, CopyOntoItselfSortsInPlace) {
  mergepath::cuda_context ctx;
  for (index_t n : {index_t{1}, index_t{1000}, index_t{5000}, index_t{300001}}) {
    const std::vector<int> keys = make_sort_keys<int>({n, distribution::uniform, case_seed({n, 0, 31})});
    device_vector<int> data(keys);
    mergepath::sort_copy(ctx, data.data(), n, data.data());
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_stable_sort(keys, mergepath::less<>{}), data.download())) << n;
  }
}

// -0.0 and +0.0 are equal under less<>: a stable sort keeps them in input order (the values show it).
TEST_F(GpuSortRadixPath, SignedZerosStayInInputOrder) {
  mergepath::cuda_context ctx;
  std::vector<float> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(i % 3 == 0 ? -0.0f : i % 3 == 1 ? 0.0f : static_cast<float>(i % 7) - 3);
  for (auto comp_is_less : {true, false}) {
    if (comp_is_less)
      ASSERT_NO_FATAL_FAILURE(
          (check_gpu_sort_pairs<float, int>(ctx, keys, mergepath::less<>{}, [](auto& ctx, auto k, auto v, index_t n) {
            mergepath::sort_pairs<always_radix>(ctx, k, v, n, mergepath::less<>{});
          })));
    else
      ASSERT_NO_FATAL_FAILURE((
          check_gpu_sort_pairs<float, int>(ctx, keys, mergepath::greater<>{}, [](auto& ctx, auto k, auto v, index_t n) {
            mergepath::sort_pairs<always_radix>(ctx, k, v, n, mergepath::greater<>{});
          })));
  }
}

TEST_F(GpuSortRadixPath, BadArgumentsThrow) {
  mergepath::cuda_context ctx;
  device_vector<int> keys(4);
  EXPECT_THROW(mergepath::sort(ctx, keys.data(), -1), std::invalid_argument);
  EXPECT_THROW(mergepath::sort(ctx, static_cast<int*>(nullptr), 3), std::invalid_argument);
  EXPECT_THROW(mergepath::sort_pairs(ctx, keys.data(), static_cast<int*>(nullptr), 3), std::invalid_argument);
  EXPECT_THROW(mergepath::sort_copy(ctx, keys.data(), 3, static_cast<int*>(nullptr)), std::invalid_argument);
  EXPECT_THROW(mergepath::sort_copy(ctx, keys.data(), -2, keys.data()), std::invalid_argument);
  EXPECT_THROW(mergepath::sort_pairs_copy(ctx, keys.data(), keys.data(), 3, keys.data(), static_cast<int*>(nullptr)),
               std::invalid_argument);
}

// Both paths in one graph (radix for the pairs, the merge sort's one-launch cluster sort for the
// small and tiny ones): no host round trip, replayed on new data.
TEST_F(GpuSortRadixPath, CapturedInGraph) {
  mergepath::cuda_context ctx;
  constexpr mergepath::sort_tuning t = mergepath::default_sort_policy<int>::tuning;
  const index_t big = mergepath::default_sort_policy<int, int>::tuning.radix_min_count + 5;
  const index_t small = 40000, tiny = 4000;
  static_assert(!t.takes_radix(40000) && !t.takes_radix(4000));
  device_vector<int> keys(big), vals(big), small_keys(small), tiny_keys(tiny), tiny_copy(tiny);
  cudaGraph_t graph = nullptr;
  MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(ctx.stream(), cudaStreamCaptureModeGlobal));
  try {
    mergepath::sort_pairs(ctx, keys.data(), vals.data(), big, mergepath::greater<>{});
    mergepath::sort(ctx, small_keys.data(), small);
    mergepath::sort(ctx, tiny_keys.data(), tiny, mergepath::greater<>{});
    mergepath::sort_copy(ctx, tiny_keys.data(), tiny, tiny_copy.data());  // into another array, after the sort
  } catch (...) {
    (void)cudaStreamEndCapture(ctx.stream(), &graph);
    if (graph) (void)cudaGraphDestroy(graph);
    throw;
  }
  MERGEPATH_CUDA_CHECK(cudaStreamEndCapture(ctx.stream(), &graph));
  cudaGraphExec_t exec = nullptr;
  MERGEPATH_CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  const std::vector<int> origin = origins<int>(big, 0);
  for (distribution d : {distribution::uniform, distribution::few_distinct}) {
    std::vector<int> in = make_sort_keys<int>({big, d, case_seed({big, static_cast<int>(d), 23})});
    std::vector<int> small_in(in.begin(), in.begin() + small), tiny_in(in.end() - tiny, in.end());
    MERGEPATH_CUDA_CHECK(cudaMemcpyAsync(keys.data(), in.data(), big * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(vals.data(), origin.data(), big * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(small_keys.data(), small_in.data(), small * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(tiny_keys.data(), tiny_in.data(), tiny * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
    ctx.synchronize();
    auto expected = std_stable_sort_pairs<int, int>(in, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(small_in, mergepath::less<>{}), small_keys.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(tiny_in, mergepath::greater<>{}), tiny_keys.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(tiny_in, mergepath::less<>{}), tiny_copy.download()));
  }
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

}  // namespace
}  // namespace mergepath_test
