// sort, sort_pairs and their copying forms on a cuda_context: the suites of suites/mergesort.hpp
// (the radix path for arithmetic keys under less / greater from radix_min_count keys and below
// the small edges of tuning/sort.hpp, the merge path for every other case, at sizes either side
// of each edge), and what only the GPU backend has (a policy that always takes the radix path,
// the four-byte keys' edge at scale, signed zeros, both paths captured in a CUDA graph).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <mergepath/mergepath.hpp>
#include <vector>

#include "gpu_util.cuh"
#include "suites/mergesort.hpp"

namespace mergepath_test {
namespace {

// Arithmetic keys under less or greater take the radix path from its edge on, point keys never.
using gpu_sort_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int64_t, mergepath::greater<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<float, mergepath::greater<>>,
                     keys_case<double, mergepath::less<>>, keys_case<point, point_x_less>,
                     pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                     pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                     pairs_case<float, std::int32_t, mergepath::less<>>, pairs_case<point, std::int32_t, point_x_less>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, Sort, on_gpu<gpu_sort_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SortCalls, on_gpu<>);

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
        check_sort(ctx, make_sort_keys<int>(c), mergepath::less<>{},
                   [](auto& ctx, auto keys, index_t n) { mergepath::sort<always_radix>(ctx, keys, n); }));
    ASSERT_NO_FATAL_FAILURE(check_sort(
        ctx, make_sort_keys<double>(c), mergepath::greater<>{},
        [](auto& ctx, auto keys, index_t n) { mergepath::sort<always_radix>(ctx, keys, n, mergepath::greater<>{}); }));
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs<std::int16_t, std::int64_t>(
        ctx, make_sort_keys<std::int16_t>(c), mergepath::greater<>{}, [](auto& ctx, auto keys, auto vals, index_t n) {
          mergepath::sort_pairs<always_radix>(ctx, keys, vals, n, mergepath::greater<>{});
        })));
    ASSERT_NO_FATAL_FAILURE(check_sort_copy(
        ctx, make_sort_keys<int>(c), mergepath::less<>{},
        [](auto& ctx, auto in, index_t n, auto out) { mergepath::sort_copy<always_radix>(ctx, in, n, out); }));
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs_copy<std::int16_t, std::int64_t>(
        ctx, make_sort_keys<std::int16_t>(c), mergepath::greater<>{},
        [](auto& ctx, auto keys, auto vals, index_t n, auto keys_out, auto vals_out) {
          mergepath::sort_pairs_copy<always_radix>(ctx, keys, vals, n, keys_out, vals_out, mergepath::greater<>{});
        })));
  }
}

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
    ASSERT_NO_FATAL_FAILURE(check_sort(ctx, make_sort_keys<std::uint32_t>(c), mergepath::less<>{},
                                       [](auto& ctx, auto keys, index_t n) { mergepath::sort(ctx, keys, n); }));
    ASSERT_NO_FATAL_FAILURE(check_sort_copy(ctx, make_sort_keys<float>(c), mergepath::greater<>{},
                                            [](auto& ctx, auto in, index_t n, auto out) {
                                              mergepath::sort_copy(ctx, in, n, out, mergepath::greater<>{});
                                            }));
  }
}

// -0.0 and +0.0 are equal under less<>: a stable sort keeps them in input order (the values show it).
TEST_F(GpuSortRadixPath, SignedZerosStayInInputOrder) {
  mergepath::cuda_context ctx;
  std::vector<float> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(i % 3 == 0 ? -0.0f : i % 3 == 1 ? 0.0f : static_cast<float>(i % 7) - 3);
  const auto check = [&](auto comp) {
    ASSERT_NO_FATAL_FAILURE((check_sort_pairs<float, int>(ctx, keys, comp, [](auto& ctx, auto k, auto v, index_t n) {
      mergepath::sort_pairs<always_radix>(ctx, k, v, n, decltype(comp){});
    })));
  };
  check(mergepath::less<>{});
  check(mergepath::greater<>{});
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
  captured_graph graph(ctx.stream(), [&] {
    mergepath::sort_pairs(ctx, keys.data(), vals.data(), big, mergepath::greater<>{});
    mergepath::sort(ctx, small_keys.data(), small);
    mergepath::sort(ctx, tiny_keys.data(), tiny, mergepath::greater<>{});
    mergepath::sort_copy(ctx, tiny_keys.data(), tiny, tiny_copy.data());  // into another array, after the sort
  });
  const std::vector<int> origin = origins<int>(big, 0);
  for (distribution d : {distribution::uniform, distribution::few_distinct}) {
    std::vector<int> in = make_sort_keys<int>({big, d, case_seed({big, static_cast<int>(d), 23})});
    std::vector<int> small_in(in.begin(), in.begin() + small), tiny_in(in.end() - tiny, in.end());
    graph.upload(keys.data(), in);
    graph.upload(vals.data(), origin);
    graph.upload(small_keys.data(), small_in);
    graph.upload(tiny_keys.data(), tiny_in);
    graph.launch();
    ctx.synchronize();
    auto expected = std_stable_sort_pairs<int, int>(in, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(small_in, mergepath::less<>{}), small_keys.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(tiny_in, mergepath::greater<>{}), tiny_keys.download()));
    EXPECT_TRUE(ranges_equal(std_stable_sort(tiny_in, mergepath::less<>{}), tiny_copy.download()));
  }
}

}  // namespace
}  // namespace mergepath_test
