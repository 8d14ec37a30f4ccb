// segmented_sort, segmented_sort_pairs, their _flags forms, locality_sort and locality_sort_pairs
// on a cuda_context: the suites of suites/segmented_sort.hpp on every tile and merge-pass edge of
// the default tunings, and what only the GPU backend has (moderngpu's segment lengths on a million
// keys; stats and the merge passes' early exit; small custom tunings that make many passes; heads
// from a device iterator; sorts captured in a CUDA graph).
#include <cuda_runtime.h>
#include <gtest/gtest.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <iostream>
#include <mergepath/mergepath.hpp>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpu_util.cuh"
#include "suites/segmented_sort.hpp"

namespace mergepath_test {
namespace {

using mergepath::segmented_sort_tuning;
using mergepath::segsort_stats;

// ---------------------------------------------------------------------------------------------
// Sizes and shapes

// Sizes on the edges of a sort with blocksort tile `sort_tile` and merge tile `merge_tile`: empty,
// tiny, primes; a merge tile either side, and two; 2^k blocksort tiles either side for k = 0 ..
// max_doublings (one more tile makes one more merge pass); three tiles (a last pair with no second
// run); a tile plus a merge tile (a pair whose output ends in a partial merge tile); about 10^5.
std::vector<index_t> gpu_segsort_sizes(index_t sort_tile, index_t merge_tile, int max_doublings) {
  std::vector<index_t> sizes{0, 1, 2, 3, 17, 33, 1009, 100003};
  for (index_t edge : {merge_tile, 2 * merge_tile, 3 * sort_tile, sort_tile + merge_tile})
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  for (int k = 0; k <= max_doublings; ++k) {
    index_t edge = sort_tile << k;
    sizes.insert(sizes.end(), {edge - 1, edge, edge + 1});
  }
  return sorted_unique_capped(sizes);
}

template <class Key, class Value = void>
constexpr segmented_sort_tuning default_tuning() {
  return mergepath::default_segmented_sort_policy<Key, Value>::tuning;
}

// The default tuning's edges up to 2^4 blocksort tiles (up to 5 merge passes).
template <class Key, class Value = void>
std::vector<index_t> default_gpu_segsort_sizes() {
  constexpr segmented_sort_tuning t = default_tuning<Key, Value>();
  return gpu_segsort_sizes(t.blocksort.tile_items(), t.merge.tile_items(), 4);
}

// Every segment shape, with heads at and around the multiples of the merge tile, the blocksort
// tile and four blocksort tiles (a segment spanning each kind of pass boundary, or ending on it).
std::vector<segment_spec> gpu_segment_specs(const segmented_sort_tuning& t) {
  const index_t sort_tile = t.blocksort.tile_items();
  return segment_specs({t.merge.tile_items(), sort_tile, 4 * sort_tile});
}

// Custom tunings (the tuned tests below; small_policy is the shared suites' tuned_policy).
// 448-key blocksort tiles, 224-key merge tiles, one block per SM serving the queues: 10^5 keys
// take 8 passes.
struct small_policy {
  static constexpr segmented_sort_tuning tuning{{64, 7}, {32, 7}, 1};
};
// An even items_per_thread, a single warp per block, merge tiles a quarter of the blocksort's.
struct even_policy {
  static constexpr segmented_sort_tuning tuning{{32, 12}, {32, 3}, 2};
};

}  // namespace

// The default tunings' edges: sizes up to 2^4 blocksort tiles (up to 5 merge passes), heads
// around their tiles.
template <>
struct segsort_edges<gpu_backend> {
  template <class Key, class Value = void>
  static std::vector<segsort_case> cases() {
    return segsort_cases_in_turn(sizes<Key, Value>(), gpu_segment_specs(default_tuning<Key, Value>()));
  }
  template <class Key, class Value = void>
  static std::vector<index_t> sizes() {
    return default_gpu_segsort_sizes<Key, Value>();
  }
  static std::vector<segment_spec> specs() { return gpu_segment_specs(default_tuning<int>()); }
  // Two blocksort tiles and a key (a pair and a short run); three and a few (a last run alone).
  static std::vector<index_t> across_tiles() {
    const index_t sort_tile = default_tuning<int>().blocksort.tile_items();
    return {2 * sort_tile + 1, 3 * sort_tile + 5};
  }
  using tuned_policy = small_policy;
};

namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SegmentedSort, on_gpu<segsort_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SegmentedSortPairs, on_gpu<segsort_pair_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Gpu, SegmentedSortCalls, on_gpu<>);

using device_heads = segment_heads_on<gpu_backend>;

// Merge passes of a sort of count keys: ceil(log2(ceil(count / blocksort tile))).
index_t expected_passes(index_t count, index_t sort_tile) {
  index_t runs = (count + sort_tile - 1) / sort_tile, passes = 0;
  while ((index_t{1} << passes) < runs) ++passes;
  return passes;
}

// What stats must say after any sort of count keys with tuning t: a tile per merge tile of the
// input, one row per merge pass, and in each no more tiles merged and copied than there are.
::testing::AssertionResult stats_consistent(const segsort_stats& stats, index_t count, const segmented_sort_tuning& t) {
  const index_t tiles = (count + t.merge.tile_items() - 1) / t.merge.tile_items();
  if (stats.tiles != tiles)
    return ::testing::AssertionFailure() << "stats.tiles " << stats.tiles << ", expected " << tiles;
  const index_t passes = expected_passes(count, t.blocksort.tile_items());
  if (static_cast<index_t>(stats.passes.size()) != passes)
    return ::testing::AssertionFailure() << stats.passes.size() << " passes, expected " << passes << '\n' << stats;
  for (std::size_t p = 0; p < stats.passes.size(); ++p) {
    const segsort_stats::pass& row = stats.passes[p];
    if (row.merge_tiles < 0 || row.copy_tiles < 0 || row.merge_tiles + row.copy_tiles > tiles)
      return ::testing::AssertionFailure() << "pass " << p << " merges " << row.merge_tiles << " and copies "
                                           << row.copy_tiles << " of " << tiles << " tiles\n"
                                           << stats;
  }
  return ::testing::AssertionSuccess();
}

std::string stats_text(const segsort_stats& stats) {
  std::ostringstream os;
  os << "tiles " << stats.tiles << '\n' << stats;
  return os.str();
}

// ---------------------------------------------------------------------------------------------
// The mean segment lengths of moderngpu's Segmented Sort and Locality Sort page on a million
// keys (and a partial tile), with stats

class GpuSegmentedSortMeans : public gpu_test {};

TEST_F(GpuSegmentedSortMeans, ModerngpuMeansOnAMillionKeys) {
  constexpr segmented_sort_tuning keys_tuning = default_tuning<int>(), pairs_tuning = default_tuning<int, int>();
  const index_t n = (index_t{1} << 20) + 12345;
  mergepath::cuda_context ctx;
  for (index_t mean : moderngpu_segment_means()) {
    for (distribution d : {distribution::uniform, distribution::few_distinct}) {
      const segsort_case c{n, d, uniform_segments(mean), case_seed({n, mean, static_cast<int>(d), 41})};
      SCOPED_TRACE(c.name());
      const std::vector<int> keys = c.keys<int>();
      const std::vector<index_t> heads = c.heads();
      const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
      const device_heads dh(heads, c.count);
      segsort_stats keys_stats, flags_stats, pairs_stats, pairs_flags_stats;
      ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t count) {
        mergepath::segmented_sort(ctx, k, count, dh.indices.data(), dh.num_heads, mergepath::less<>{}, &keys_stats);
      })) << "segmented_sort";
      ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t count) {
        mergepath::segmented_sort_flags(ctx, k, count, dh.flags.data(), mergepath::less<>{}, &flags_stats);
      })) << "segmented_sort_flags";
      ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t count) {
        mergepath::segmented_sort_pairs(ctx, k, v, count, dh.indices32.data(), dh.num_heads, mergepath::less<>{},
                                        &pairs_stats);
      })) << "segmented_sort_pairs, int32 heads";
      ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t count) {
        mergepath::segmented_sort_pairs_flags(ctx, k, v, count, dh.flags.data(), mergepath::less<>{},
                                              &pairs_flags_stats);
      })) << "segmented_sort_pairs_flags";

      EXPECT_TRUE(stats_consistent(keys_stats, n, keys_tuning));
      EXPECT_TRUE(stats_consistent(flags_stats, n, keys_tuning));
      EXPECT_TRUE(stats_consistent(pairs_stats, n, pairs_tuning));
      EXPECT_TRUE(stats_consistent(pairs_flags_stats, n, pairs_tuning));
      // The same segments, whichever way the heads came: the same work.
      EXPECT_EQ(stats_text(keys_stats), stats_text(flags_stats));
      EXPECT_EQ(stats_text(pairs_stats), stats_text(pairs_flags_stats));
      // Segments longer than a blocksort tile span runs: some tile must merge.
      if (mean >= 10000) {
        EXPECT_GE(keys_stats.total_merge_tiles(), 1) << keys_stats;
        EXPECT_GE(pairs_stats.total_merge_tiles(), 1) << pairs_stats;
      }
      if (d == distribution::uniform) std::cout << "[ stats    ] " << c.name() << ", keys:\n" << keys_stats;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Stats: the early exit, pass by pass

class GpuSegsortStats : public gpu_test {};

// Every sort fills them consistently at sizes around the pass edges (no passes for 0 or 1 key).
TEST_F(GpuSegsortStats, TilesAndPassesAtEdges) {
  constexpr segmented_sort_tuning keys_tuning = default_tuning<int>(), pairs_tuning = default_tuning<int, int>();
  mergepath::cuda_context ctx;
  for (const segsort_case& c :
       segsort_cases_in_turn(default_gpu_segsort_sizes<int>(), {uniform_segments(300), uniform_segments(1000000)})) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>(), origin = origins<int>(c.count, 0);
    const device_heads dh(c.heads(), c.count);
    device_vector<int> k(keys), v(origin);
    segsort_stats stats;
    stats.tiles = 99;
    stats.passes = {{1, 2}};  // stale: the first sort must replace them, and each sort the last one's
    // Fresh input for each sort: a sort without passes does not wait, so wait before the upload.
    auto fresh = [&] {
      ctx.synchronize();
      k.upload(keys);
      v.upload(origin);
    };
    mergepath::segmented_sort(ctx, k.data(), c.count, dh.indices.data(), dh.num_heads, mergepath::less<>{}, &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, keys_tuning)) << "segmented_sort";
    fresh();
    mergepath::segmented_sort_flags(ctx, k.data(), c.count, dh.flags.data(), mergepath::less<>{}, &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, keys_tuning)) << "segmented_sort_flags";
    fresh();
    mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.count, dh.indices.data(), dh.num_heads,
                                    mergepath::less<>{}, &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, pairs_tuning)) << "segmented_sort_pairs";
    fresh();
    mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), c.count, dh.flags.data(), mergepath::less<>{},
                                          &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, pairs_tuning)) << "segmented_sort_pairs_flags";
    fresh();
    mergepath::locality_sort(ctx, k.data(), c.count, mergepath::less<>{}, &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, keys_tuning)) << "locality_sort";
    fresh();
    mergepath::locality_sort_pairs(ctx, k.data(), v.data(), c.count, mergepath::less<>{}, &stats);
    EXPECT_TRUE(stats_consistent(stats, c.count, pairs_tuning)) << "locality_sort_pairs";
    ctx.synchronize();  // before the buffers go
  }
}

// The two extremes of the early exit, on a 2^20-key sort with a 16-key remainder. Segments that
// never span two blocksort tiles (heads at every tile start, and more inside; or every key its
// own segment) never merge after the blocksort: each tile copies once and then does nothing.
// One segment merges in every pass. The output is checked too.
TEST_F(GpuSegsortStats, EarlyExitExtremes) {
  constexpr segmented_sort_tuning t = default_tuning<int>();
  const index_t sort_tile = t.blocksort.tile_items();
  const index_t n = (index_t{1} << 20) + 16;
  mergepath::cuda_context ctx;
  const sort_case keys_case{n, distribution::uniform, case_seed({n, 42})};
  SCOPED_TRACE(keys_case.name());
  const std::vector<int> keys = make_sort_keys<int>(keys_case);

  std::mt19937_64 rng(case_seed({n, 43}));
  std::vector<index_t> within_tiles = make_heads(uniform_segments(300), n, rng);
  for (index_t h = sort_tile; h < n; h += sort_tile) within_tiles.push_back(h);
  std::sort(within_tiles.begin(), within_tiles.end());
  within_tiles.erase(std::unique(within_tiles.begin(), within_tiles.end()), within_tiles.end());
  std::vector<index_t> all_keys(static_cast<std::size_t>(n));
  std::iota(all_keys.begin(), all_keys.end(), index_t{0});

  struct named_heads {
    const char* what;
    const std::vector<index_t>* heads;
  };
  for (const named_heads& h : {named_heads{"within tiles", &within_tiles}, named_heads{"length 1", &all_keys}}) {
    SCOPED_TRACE(h.what);
    const std::vector<index_t>& heads = *h.heads;
    const device_heads dh(heads, n);
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(check_sort_against(
        ctx, keys, std_segmented_sort(keys, heads, mergepath::less<>{}), [&](auto& ctx, auto k, index_t count) {
          mergepath::segmented_sort(ctx, k, count, dh.indices.data(), dh.num_heads, mergepath::less<>{}, &stats);
        }));
    ASSERT_TRUE(stats_consistent(stats, n, t));
    EXPECT_EQ(stats.total_merge_tiles(), 0) << stats;
    EXPECT_LE(stats.total_copy_tiles(), stats.tiles) << "each tile copies at most once\n" << stats;
  }

  segsort_stats stats;
  ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, std_stable_sort(keys, mergepath::less<>{}),
                                        [&](auto& ctx, auto k, index_t count) {
                                          mergepath::segmented_sort(ctx, k, count, static_cast<const index_t*>(nullptr),
                                                                    0, mergepath::less<>{}, &stats);
                                        }))
      << "one segment";
  ASSERT_TRUE(stats_consistent(stats, n, t));
  for (std::size_t p = 0; p < stats.passes.size(); ++p)
    EXPECT_GE(stats.passes[p].merge_tiles, 1) << "pass " << p << '\n' << stats;
}

// A locality sort of sorted keys (or all equal: stable, so in place too) merges nothing; random
// keys merge in every pass.
TEST_F(GpuSegsortStats, LocalitySortOfSortedKeysOnlyCopies) {
  constexpr segmented_sort_tuning t = default_tuning<int>();
  const index_t n = (index_t{1} << 20) + 16;
  mergepath::cuda_context ctx;
  for (distribution d : {distribution::sorted, distribution::all_equal, distribution::uniform}) {
    const sort_case c{n, d, case_seed({n, static_cast<int>(d), 44})};
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = make_sort_keys<int>(c);
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(
        check_sort_against(ctx, keys, std_stable_sort(keys, mergepath::less<>{}), [&](auto& ctx, auto k, index_t count) {
          mergepath::locality_sort(ctx, k, count, mergepath::less<>{}, &stats);
        }));
    ASSERT_TRUE(stats_consistent(stats, n, t));
    if (d == distribution::uniform) {
      for (std::size_t p = 0; p < stats.passes.size(); ++p)
        EXPECT_GE(stats.passes[p].merge_tiles, 1) << "pass " << p << '\n' << stats;
    } else {
      EXPECT_EQ(stats.total_merge_tiles(), 0) << stats;
      EXPECT_LE(stats.total_copy_tiles(), stats.tiles) << "each tile copies at most once\n" << stats;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Tuning is overridable: tiles so small that 10^5 keys take many passes, and a small queue grid.

template <class Policy>
class GpuSegmentedSortTuned : public gpu_test {};
using policies = ::testing::Types<small_policy, even_policy>;
TYPED_TEST_SUITE(GpuSegmentedSortTuned, policies);

template <class Policy>
std::vector<index_t> tuned_sizes() {
  return gpu_segsort_sizes(Policy::tuning.blocksort.tile_items(), Policy::tuning.merge.tile_items(), 8);
}

// int keys; point keys tied on x, with values: stability shows in the keys and in the values.
TYPED_TEST(GpuSegmentedSortTuned, SegmentedSorts) {
  mergepath::cuda_context ctx;
  for (const segsort_case& c : segsort_cases_in_turn(tuned_sizes<TypeParam>(), gpu_segment_specs(TypeParam::tuning))) {
    SCOPED_TRACE(c.name());
    const std::vector<index_t> heads = c.heads();
    const device_heads d(heads, c.count);
    const std::vector<int> keys = c.keys<int>();
    const std::vector<int> expected = std_segmented_sort(keys, heads, mergepath::less<>{});
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort<TypeParam>(ctx, k, n, d.indices.data(), d.num_heads, mergepath::less<>{}, &stats);
    })) << "segmented_sort_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE(check_sort_against(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort_flags<TypeParam>(ctx, k, n, d.flags.data());
    })) << "segmented_sort_flags_tuned";

    const std::vector<point> points = c.keys<point>();
    const auto expected_pairs = std_segmented_sort_pairs<point, int>(points, heads, point_x_less{});
    ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, points, expected_pairs, [&](auto& ctx, auto k, auto v, index_t n) {
      mergepath::segmented_sort_pairs<TypeParam>(ctx, k, v, n, d.indices32.data(), d.num_heads, point_x_less{}, &stats);
    })) << "segmented_sort_pairs_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, points, expected_pairs, [&](auto& ctx, auto k, auto v, index_t n) {
      mergepath::segmented_sort_pairs_flags<TypeParam>(ctx, k, v, n, d.flags.data(), point_x_less{});
    })) << "segmented_sort_pairs_flags_tuned";
  }
}

TYPED_TEST(GpuSegmentedSortTuned, Locality) {
  mergepath::cuda_context ctx;
  for (const locality_case& c : locality_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    const std::vector<point> keys = c.keys<point>();
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(check_sort_against(
        ctx, keys, std_stable_sort(keys, point_x_less{}),
        [&](auto& ctx, auto k, index_t n) { mergepath::locality_sort<TypeParam>(ctx, k, n, point_x_less{}, &stats); }))
        << "locality_sort_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE(check_sort_pairs_against(ctx, keys, std_stable_sort_pairs<point, int>(keys, point_x_less{}),
                                                [](auto& ctx, auto k, auto v, index_t n) {
                                                  mergepath::locality_sort_pairs<TypeParam>(ctx, k, v, n,
                                                                                            point_x_less{});
                                                }))
        << "locality_sort_pairs_tuned";
  }
}

// ---------------------------------------------------------------------------------------------
// Heads from a device iterator

class GpuSegmentedSortHeads : public gpu_test {};

// Heads i * stride, computed on the fly by a Thrust iterator: any device iterator will do.
struct times {
  int stride;
  MERGEPATH_HD int operator()(int i) const { return i * stride; }
};

TEST_F(GpuSegmentedSortHeads, HeadsFromAnIterator) {
  mergepath::cuda_context ctx;
  for (int stride : {1, 7, 5888, 11777}) {
    for (index_t n : {index_t{1009}, index_t{100003}}) {
      const sort_case c{n, distribution::few_distinct, case_seed({n, stride, 45})};
      SCOPED_TRACE(::testing::Message() << c.name() << ", heads every " << stride);
      const std::vector<int> keys = make_sort_keys<int>(c);
      const index_t num_heads = (n + stride - 1) / stride;
      std::vector<index_t> heads;
      for (index_t i = 0; i < num_heads; ++i) heads.push_back(i * stride);
      auto heads_it = thrust::make_transform_iterator(thrust::make_counting_iterator(0), times{stride});
      ASSERT_NO_FATAL_FAILURE(
          check_sort_pairs_against(ctx, keys, std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{}),
                              [&](auto& ctx, auto k, auto v, index_t count) {
                                mergepath::segmented_sort_pairs(ctx, k, v, count, heads_it, num_heads);
                              }));
      ctx.set_checked(true);  // the check reads the iterator on the device too
      ASSERT_NO_FATAL_FAILURE(check_sort_against(
          ctx, keys, std_segmented_sort(keys, heads, mergepath::less<>{}),
          [&](auto& ctx, auto k, index_t count) { mergepath::segmented_sort(ctx, k, count, heads_it, num_heads); }));
      ctx.set_checked(false);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A CUDA graph: a segmented sort and a locality sort captured once, replayed on new data

// `count` distinct heads in [1, n), sorted.
std::vector<index_t> random_heads(index_t n, index_t count, std::mt19937_64& rng) {
  std::vector<index_t> all(static_cast<std::size_t>(n - 1));
  std::iota(all.begin(), all.end(), index_t{1});
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(static_cast<std::size_t>(count));
  std::sort(all.begin(), all.end());
  return all;
}

class GpuSegmentedSortGraph : public gpu_test {};

TEST_F(GpuSegmentedSortGraph, SortsCapturedInGraph) {
  mergepath::cuda_context ctx;
  // Five blocksort tiles plus a little: three merge passes, the last pair's second run short.
  const index_t n = 5 * default_tuning<int>().blocksort.tile_items() + 17;
  const index_t num_heads = 300;
  device_vector<int> keys(static_cast<std::size_t>(n)), pair_keys(static_cast<std::size_t>(n)),
      vals(static_cast<std::size_t>(n));
  device_vector<index_t> heads(static_cast<std::size_t>(num_heads));

  const captured_graph graph(ctx.stream(), [&] {
    mergepath::segmented_sort(ctx, keys.data(), n, heads.data(), num_heads);
    mergepath::locality_sort_pairs(ctx, pair_keys.data(), vals.data(), n, mergepath::greater<>{});
  });

  const std::vector<int> origin = origins<int>(n, 0);
  for (distribution d : {distribution::uniform, distribution::few_distinct}) {
    sort_case c{n, d, case_seed({n, static_cast<int>(d), 46})};
    SCOPED_TRACE(c.name());
    std::vector<int> in = make_sort_keys<int>(c);
    std::vector<int> near(in.size());  // (n - i) + rand(0..25): near its place in descending order
    for (index_t i = 0; i < n; ++i)
      near[static_cast<std::size_t>(i)] = static_cast<int>(n - i) + in[static_cast<std::size_t>(i)] % 26;
    std::mt19937_64 rng(c.seed);
    const std::vector<index_t> h = random_heads(n, num_heads, rng);
    // New data and new heads, ordered before the replay on the same stream.
    graph.upload(keys.data(), in);
    graph.upload(heads.data(), h);
    graph.upload(pair_keys.data(), near);
    graph.upload(vals.data(), origin);
    graph.launch();
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_segmented_sort(in, h, mergepath::less<>{}), keys.download()));
    auto expected = std_stable_sort_pairs<int, int>(near, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, pair_keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
  }
}

}  // namespace
}  // namespace mergepath_test
