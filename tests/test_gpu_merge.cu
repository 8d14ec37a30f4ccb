// merge and merge_pairs on a cuda_context: the suites of suites/merge.hpp, and what only the GPU
// backend has (tunings and schedules, device iterators, unsorted input under compute-sanitizer).
#include <gtest/gtest.h>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <mergepath/mergepath.hpp>
#include <random>
#include <vector>

#include "gpu_util.cuh"
#include "suites/merge.hpp"

namespace mergepath_test {
namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, Merge, on_gpu<merge_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, MergePairs, on_gpu<merge_pair_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, MergeCalls, on_gpu<>);

// ---------------------------------------------------------------------------------------------
// Tuning is overridable, and every schedule (one stage, two stages, streamed, chunked) merges correctly.

// One tile per block, loaded then merged; merges of up to one such tile (896 outputs) in chunks
// of 96-key tiles instead (small_block_threads), so the sweep's tile and tile + 1 fall either side.
struct one_stage_policy {
  static constexpr mergepath::merge_tuning tuning = [] {
    mergepath::merge_tuning t{128, 7, 1};
    t.small_block_threads = 32;
    t.small_items_per_thread = 3;
    t.small_max_total = 128 * 7;
    return t;
  }();
};
// Tiles so small that the suite's largest size (2^20 + 3: 8193 tiles) outnumbers the blocks of
// the persistent grid (at most 32 resident per SM on sm_90, 132 SMs on an H100), so blocks merge
// more than one tile and the prefetch of the next one runs; an even items_per_thread too.
struct two_stage_policy {
  static constexpr mergepath::merge_tuning tuning{32, 4, 2};
};

// The streamed schedule with tiles so small (96 keys) that at the suite's larger sizes every
// chunk spans several tiles and the rings wrap; pairs ignore `streamed` and use tiles.
struct streamed_policy {
  static constexpr mergepath::merge_tuning tuning{32, 3, 1, true};
};
struct streamed_wide_policy {
  static constexpr mergepath::merge_tuning tuning{128, 15, 1, true};
};

// The chunked schedule at every size: with 96-key tiles every chunk at the suite's larger sizes
// spans many tiles, each split found in the window after the last; and the int32 default shape.
struct chunked_policy {
  static constexpr mergepath::merge_tuning tuning{32, 3, 1, false, 1024, 1, 1 << 30};
};
struct chunked_wide_policy {
  static constexpr mergepath::merge_tuning tuning{256, 23, 1, false, 1536, 1, 1 << 30};
};

// The partition pass without samples, and with so few (64 bytes) that each search's window is
// wide; the default samples 16 KB, which at the suite's sizes is a sample every few elements.
struct unsampled_policy {
  static constexpr mergepath::merge_tuning tuning{128, 7, 1, false, 1024, 1, 0, 0};
};
struct sparse_samples_policy {
  static constexpr mergepath::merge_tuning tuning{64, 5, 1, false, 1024, 1, 0, 64};
};
// Every tile asks L2 for the next one's keys and values (a distance of one tile on any GPU), and
// stores its output evict-first whatever its size.
struct prefetching_policy {
  static constexpr mergepath::merge_tuning tuning{128, 5, 1, false, 1024, 1, 0, 1024, 0.001f, 0.0f, 1 << 20};
};

template <class Policy>
class GpuMergeTuned : public gpu_test {};
using policies =
    ::testing::Types<one_stage_policy, two_stage_policy, streamed_policy, streamed_wide_policy, chunked_policy,
                     chunked_wide_policy, unsampled_policy, sparse_samples_policy, prefetching_policy>;
TYPED_TEST_SUITE(GpuMergeTuned, policies);

TYPED_TEST(GpuMergeTuned, Keys) {
  mergepath::cuda_context ctx;
  for (const merge_case& c : merge_cases(merge_sizes(TypeParam::tuning.tile_items()))) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE(check_merge(ctx, make_merge_input<int>(c, mergepath::less<>{}), mergepath::less<>{},
                                            [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
                                              mergepath::merge<TypeParam>(ctx, a, na, b, nb, out);
                                            }));
  }
}

TYPED_TEST(GpuMergeTuned, Pairs) {
  mergepath::cuda_context ctx;
  for (const merge_case& c : merge_cases(merge_sizes(TypeParam::tuning.tile_items()))) {
    SCOPED_TRACE(c.name());
    ASSERT_NO_FATAL_FAILURE((check_merge_pairs<int, int>(
        ctx, make_merge_input<int>(c, mergepath::less<>{}), mergepath::less<>{},
        [](auto& ctx, auto ak, auto av, index_t na, auto bk, auto bv, index_t nb, auto ok, auto ov) {
          mergepath::merge_pairs<TypeParam>(ctx, ak, av, na, bk, bv, nb, ok, ov);
        })));
  }
}

// A tile that needs more than the default 48 KiB of shared memory (2 x 7936 int).
struct big_tile_policy {
  static constexpr mergepath::merge_tuning tuning{256, 31, 2};
};

class GpuMergePolicies : public gpu_test {};

// Several tunings of one signature (same iterators and comparator) in one process, smallest
// first: each launch must get its own occupancy and shared-memory limit.
TEST_F(GpuMergePolicies, DifferentTuningsOfOneSignature) {
  mergepath::cuda_context ctx;
  merge_case c{5 * big_tile_policy::tuning.tile_items() + 3, 4 * big_tile_policy::tuning.tile_items() - 1,
               distribution::few_distinct, case_seed({16})};
  SCOPED_TRACE(c.name());
  merge_input<int> in = make_merge_input<int>(c, mergepath::less<>{});
  auto check = [&](auto run) { ASSERT_NO_FATAL_FAILURE(check_merge(ctx, in, mergepath::less<>{}, run)); };
  check([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::merge<two_stage_policy>(ctx, a, na, b, nb, out);
  });
  check([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) { mergepath::merge(ctx, a, na, b, nb, out); });
  check([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::merge<big_tile_policy>(ctx, a, na, b, nb, out);
  });
  check([](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) {
    mergepath::merge<one_stage_policy>(ctx, a, na, b, nb, out);
  });
}

// The default int32 tuning either side of its small merges' edge (small_max_total outputs in
// chunks of 128 x 23 tiles; one more takes the chunked 384 x 27 tiles).
TEST_F(GpuMergePolicies, DefaultInt32EitherSideOfTheSmallMerges) {
  constexpr index_t edge = mergepath::default_merge_policy<int>::tuning.small_max_total;
  static_assert(edge > 0, "int32 keys have small merges");
  mergepath::cuda_context ctx;
  for (index_t total : sorted_unique_capped({edge, edge + 1})) {
    merge_case c{total / 3, total - total / 3, distribution::few_distinct, case_seed({total, 17})};
    SCOPED_TRACE(c.name());
    merge_input<int> in = make_merge_input<int>(c, mergepath::less<>{});
    ASSERT_NO_FATAL_FAILURE(check_merge(
        ctx, in, mergepath::less<>{},
        [](auto& ctx, auto a, index_t na, auto b, index_t nb, auto out) { mergepath::merge(ctx, a, na, b, nb, out); }));
  }
}

// ---------------------------------------------------------------------------------------------
// Device iterators that are not pointers: a = 0, 1, 2, ... from a counting iterator, and the
// pairs' values (their origins) from counting iterators too.

class GpuMergeIterators : public gpu_test {};

TEST_F(GpuMergeIterators, CountingIterators) {
  mergepath::cuda_context ctx;
  for (index_t n : merge_sizes(merge_tile_items<int>())) {
    merge_case c{n / 3, n - n / 3, distribution::uniform, case_seed({n, 6})};
    SCOPED_TRACE(c.name());
    std::vector<int> a = origins<int>(c.a_count, 0);
    std::vector<int> b(static_cast<std::size_t>(c.b_count));  // sorted, in a's range: many ties
    std::mt19937_64 rng(c.seed);
    for (int& x : b) x = std::uniform_int_distribution<int>(0, static_cast<int>(c.a_count))(rng);
    std::sort(b.begin(), b.end());
    std::vector<int> expected = std_merge(a, b, mergepath::less<>{});
    device_vector<int> d_b(b), out(expected.size());
    mergepath::merge(ctx, thrust::counting_iterator<int>(0), c.a_count, d_b.data(), c.b_count, out.data());
    ASSERT_TRUE(ranges_equal(expected, out.download()));

    // merge_pairs with values 0, 1, ... for a and a_count, ... for b: the origins, as iterators.
    std::vector<int> a_vals = origins<int>(c.a_count, 0), b_vals = origins<int>(c.b_count, c.a_count);
    auto expected_pairs = std_merge_pairs(a, a_vals, b, b_vals, mergepath::less<>{});
    device_vector<int> keys(expected.size()), vals(expected.size());
    mergepath::merge_pairs(ctx, thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(0), c.a_count,
                           d_b.data(), thrust::counting_iterator<int>(static_cast<int>(c.a_count)), c.b_count,
                           keys.data(), vals.data());
    ASSERT_TRUE(ranges_equal(expected_pairs.first, keys.download()));
    ASSERT_TRUE(ranges_equal(expected_pairs.second, vals.download()));
  }
}

// ---------------------------------------------------------------------------------------------
// Unsorted input without checked mode: unspecified output, but no fault (compute-sanitizer runs
// this suite, so the sizes stay at a few tiles).

class GpuMergeUnsorted : public gpu_test {};

TEST_F(GpuMergeUnsorted, DoesNotFault) {
  mergepath::cuda_context ctx;
  std::mt19937_64 rng(case_seed({7}));
  SCOPED_TRACE("MERGEPATH_TEST_SEED=" + std::to_string(base_seed()));
  index_t tile = merge_tile_items<int>();
  for (index_t n : {index_t{1}, index_t{100}, tile + 1, 3 * tile + 5}) {
    std::vector<int> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n / 2 + 1));
    for (int& x : a) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    for (int& x : b) x = std::uniform_int_distribution<int>(0, 1000)(rng);
    index_t na = n, nb = n / 2 + 1;
    device_vector<int> da(a), db(b), out(a.size() + b.size()), vals(a.size() + b.size());
    mergepath::merge(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::merge<two_stage_policy>(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::merge<one_stage_policy>(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::merge<sparse_samples_policy>(ctx, da.data(), na, db.data(), nb, out.data());
    mergepath::merge_pairs(ctx, da.data(), da.data(), na, db.data(), db.data(), nb, out.data(), vals.data());
    EXPECT_NO_THROW(ctx.synchronize()) << "n " << n;
  }
}

}  // namespace
}  // namespace mergepath_test
