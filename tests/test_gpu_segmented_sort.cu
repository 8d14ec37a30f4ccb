// segmented_sort, segmented_sort_pairs, their _flags forms, locality_sort and locality_sort_pairs
// on a cuda_context, against std::stable_sort of each segment: key types, comparators, sizes on
// every tile and merge-pass edge, key distributions and segment shapes; moderngpu's segment
// lengths on a million keys; small custom tunings that make many passes; stats; head types and
// iterators; sorts captured in a CUDA graph; malformed heads; argument errors.
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
#include "segsort_util.hpp"

namespace mergepath_test {
namespace {

using mergepath::segmented_sort_tuning;
using mergepath::segsort_stats;

index_t size_of(const std::vector<index_t>& heads) { return static_cast<index_t>(heads.size()); }

// ---------------------------------------------------------------------------------------------
// Sizes, shapes and the checks every test shares

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

// A segmented sort's heads on the device: int64 and int32 indices, and the bitfield.
struct device_heads {
  index_t num_heads;
  device_vector<index_t> indices;
  device_vector<std::int32_t> indices32;
  device_vector<std::uint32_t> flags;

  device_heads(const std::vector<index_t>& heads, index_t count)
      : num_heads(size_of(heads)),
        indices(heads),
        indices32(heads_as<std::int32_t>(heads)),
        flags(head_flags(heads, count)) {}
};

// Sorts a device copy of keys, between poisoned guards, with sort(ctx, keys, count), and checks
// the result against `expected` and that the guards are untouched.
template <class Key, class Sort>
void check_gpu_keys(mergepath::cuda_context& ctx, const std::vector<Key>& keys, const std::vector<Key>& expected,
                    Sort sort) {
  device_vector<Key> data(guarded(keys));
  sort(ctx, data.data() + guard_items, static_cast<index_t>(keys.size()));
  ctx.synchronize();
  ASSERT_TRUE(guarded_equal(expected, data.download()));
}

// The same for sort_pairs(ctx, keys, vals, count), with values that record each key's origin.
template <class Key, class Value, class SortPairs>
void check_gpu_pairs(mergepath::cuda_context& ctx, const std::vector<Key>& keys,
                     const std::pair<std::vector<Key>, std::vector<Value>>& expected, SortPairs sort_pairs) {
  const index_t count = static_cast<index_t>(keys.size());
  device_vector<Key> data_keys(guarded(keys));
  device_vector<Value> data_vals(guarded(origins<Value>(count, 0)));
  sort_pairs(ctx, data_keys.data() + guard_items, data_vals.data() + guard_items, count);
  ctx.synchronize();
  ASSERT_TRUE(guarded_equal(expected.first, data_keys.download()));
  ASSERT_TRUE(guarded_equal(expected.second, data_vals.download()));
}

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

using key_cases =
    ::testing::Types<keys_case<std::int32_t, mergepath::less<>>, keys_case<std::int64_t, mergepath::greater<>>,
                     keys_case<std::uint32_t, mergepath::less<>>, keys_case<float, mergepath::less<>>,
                     keys_case<double, mergepath::greater<>>,
                     // ties on x with different y: keys-only stability shows in the output
                     keys_case<point, point_x_less>>;

// 8-, 16- and 12-byte pairs: three default tunings.
using pair_cases = ::testing::Types<pairs_case<std::int32_t, std::int32_t, mergepath::less<>>,
                                    pairs_case<std::int64_t, std::int64_t, mergepath::greater<>>,
                                    pairs_case<point, std::int32_t, point_x_less>>;

// ---------------------------------------------------------------------------------------------
// segmented_sort and segmented_sort_flags, default tunings

template <class Case>
class GpuSegmentedSort : public gpu_test {};
TYPED_TEST_SUITE(GpuSegmentedSort, key_cases);

// Heads as int64 indices and as the bitfield: both must give each segment's std::stable_sort.
TYPED_TEST(GpuSegmentedSort, MatchesPerSegmentStableSort) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const segsort_case& c :
       segsort_cases_in_turn(default_gpu_segsort_sizes<Key>(), gpu_segment_specs(default_tuning<Key>()))) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<Key> expected = std_segmented_sort(keys, heads, Comp{});
    const device_heads d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort(ctx, k, n, d.indices.data(), d.num_heads, Comp{});
    })) << "segmented_sort";
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort_flags(ctx, k, n, d.flags.data(), Comp{});
    })) << "segmented_sort_flags";
  }
}

// ---------------------------------------------------------------------------------------------
// segmented_sort_pairs and segmented_sort_pairs_flags

template <class Case>
class GpuSegmentedSortPairs : public gpu_test {};
TYPED_TEST_SUITE(GpuSegmentedSortPairs, pair_cases);

// Values record their key's origin: within a segment, equal keys keep their values in ascending
// order, and no value leaves its segment. The two forms of the heads must agree.
TYPED_TEST(GpuSegmentedSortPairs, StableLikePerSegmentStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const segsort_case& c : segsort_cases_in_turn(default_gpu_segsort_sizes<Key, Value>(),
                                                     gpu_segment_specs(default_tuning<Key, Value>()))) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    const std::vector<index_t> heads = c.heads();
    const auto expected = std_segmented_sort_pairs<Key, Value>(keys, heads, Comp{});
    const device_heads d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<Key, Value>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t n) {
                                                           mergepath::segmented_sort_pairs(
                                                               ctx, k, v, n, d.indices.data(), d.num_heads, Comp{});
                                                         })))
        << "segmented_sort_pairs";
    ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<Key, Value>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t n) {
                                                           mergepath::segmented_sort_pairs_flags(
                                                               ctx, k, v, n, d.flags.data(), Comp{});
                                                         })))
        << "segmented_sort_pairs_flags";
  }
}

// ---------------------------------------------------------------------------------------------
// locality_sort and locality_sort_pairs: a whole-array stable sort

template <class Case>
class GpuLocalitySort : public gpu_test {};
TYPED_TEST_SUITE(GpuLocalitySort, key_cases);

TYPED_TEST(GpuLocalitySort, MatchesStdStableSort) {
  using Key = typename TypeParam::key;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const locality_case& c : locality_cases(default_gpu_segsort_sizes<Key>())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, std_stable_sort(keys, Comp{}), [](auto& ctx, auto k, index_t n) {
      mergepath::locality_sort(ctx, k, n, Comp{});
    }));
  }
}

template <class Case>
class GpuLocalitySortPairs : public gpu_test {};
TYPED_TEST_SUITE(GpuLocalitySortPairs, pair_cases);

TYPED_TEST(GpuLocalitySortPairs, StableLikeStdStableSort) {
  using Key = typename TypeParam::key;
  using Value = typename TypeParam::value;
  using Comp = typename TypeParam::comp;
  mergepath::cuda_context ctx;
  for (const locality_case& c : locality_cases(default_gpu_segsort_sizes<Key, Value>())) {
    SCOPED_TRACE(c.name());
    const std::vector<Key> keys = c.keys<Key>();
    ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<Key, Value>(
        ctx, keys, std_stable_sort_pairs<Key, Value>(keys, Comp{}),
        [](auto& ctx, auto k, auto v, index_t n) { mergepath::locality_sort_pairs(ctx, k, v, n, Comp{}); })));
  }
}

// ---------------------------------------------------------------------------------------------
// The mean segment lengths of moderngpu's Segmented Sort and Locality Sort page on a million
// keys (and a partial tile), with stats

class GpuSegmentedSortMeans : public gpu_test {};

TEST_F(GpuSegmentedSortMeans, SeedMeansOnAMillionKeys) {
  constexpr segmented_sort_tuning keys_tuning = default_tuning<int>(), pairs_tuning = default_tuning<int, int>();
  const index_t n = (index_t{1} << 20) + 12345;
  mergepath::cuda_context ctx;
  for (index_t mean : seed_segment_means()) {
    for (distribution d : {distribution::uniform, distribution::few_distinct}) {
      const segsort_case c{n, d, uniform_segments(mean), case_seed({n, mean, static_cast<int>(d), 41})};
      SCOPED_TRACE(c.name());
      const std::vector<int> keys = c.keys<int>();
      const std::vector<index_t> heads = c.heads();
      const std::vector<index_t> order = segmented_stable_order(keys, heads, mergepath::less<>{});
      const std::pair<std::vector<int>, std::vector<int>> expected{keys_in_order(keys, order),
                                                                   origins_in_order<int>(order)};
      const device_heads dh(heads, c.count);
      segsort_stats keys_stats, flags_stats, pairs_stats, pairs_flags_stats;
      ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t count) {
        mergepath::segmented_sort(ctx, k, count, dh.indices.data(), dh.num_heads, mergepath::less<>{}, &keys_stats);
      })) << "segmented_sort";
      ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected.first, [&](auto& ctx, auto k, index_t count) {
        mergepath::segmented_sort_flags(ctx, k, count, dh.flags.data(), mergepath::less<>{}, &flags_stats);
      })) << "segmented_sort_flags";
      ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<int, int>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t count) {
                                                           mergepath::segmented_sort_pairs(
                                                               ctx, k, v, count, dh.indices32.data(), dh.num_heads,
                                                               mergepath::less<>{}, &pairs_stats);
                                                         })))
          << "segmented_sort_pairs, int32 heads";
      ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<int, int>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t count) {
                                                           mergepath::segmented_sort_pairs_flags(
                                                               ctx, k, v, count, dh.flags.data(), mergepath::less<>{},
                                                               &pairs_flags_stats);
                                                         })))
          << "segmented_sort_pairs_flags";

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
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(
        ctx, keys, std_segmented_sort(keys, heads, mergepath::less<>{}), [&](auto& ctx, auto k, index_t count) {
          mergepath::segmented_sort(ctx, k, count, dh.indices.data(), dh.num_heads, mergepath::less<>{}, &stats);
        }));
    ASSERT_TRUE(stats_consistent(stats, n, t));
    EXPECT_EQ(stats.total_merge_tiles(), 0) << stats;
    EXPECT_LE(stats.total_copy_tiles(), stats.tiles) << "each tile copies at most once\n" << stats;
  }

  segsort_stats stats;
  ASSERT_NO_FATAL_FAILURE(check_gpu_keys(
      ctx, keys, std_stable_sort(keys, mergepath::less<>{}),
      [&](auto& ctx, auto k, index_t count) {
        mergepath::segmented_sort(ctx, k, count, static_cast<const index_t*>(nullptr), 0, mergepath::less<>{}, &stats);
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
        check_gpu_keys(ctx, keys, std_stable_sort(keys, mergepath::less<>{}), [&](auto& ctx, auto k, index_t count) {
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

// 448-key blocksort tiles, 224-key merge tiles, one block per SM serving the queues: 10^5 keys
// take 8 passes.
struct small_policy {
  static constexpr segmented_sort_tuning tuning{{64, 7}, {32, 7}, 1};
};
// An even items_per_thread, a single warp per block, merge tiles a quarter of the blocksort's.
struct even_policy {
  static constexpr segmented_sort_tuning tuning{{32, 12}, {32, 3}, 2};
};

template <class Policy>
class GpuSegmentedSortTuned : public gpu_test {};
using policies = ::testing::Types<small_policy, even_policy>;
TYPED_TEST_SUITE(GpuSegmentedSortTuned, policies);

template <class Policy>
std::vector<index_t> tuned_sizes() {
  return gpu_segsort_sizes(Policy::tuning.blocksort.tile_items(), Policy::tuning.merge.tile_items(), 8);
}

TYPED_TEST(GpuSegmentedSortTuned, Keys) {
  mergepath::cuda_context ctx;
  for (const segsort_case& c : segsort_cases_in_turn(tuned_sizes<TypeParam>(), gpu_segment_specs(TypeParam::tuning))) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<int> expected = std_segmented_sort(keys, heads, mergepath::less<>{});
    const device_heads d(heads, c.count);
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort<TypeParam>(ctx, k, n, d.indices.data(), d.num_heads, mergepath::less<>{}, &stats);
    })) << "segmented_sort_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
      mergepath::segmented_sort_flags<TypeParam>(ctx, k, n, d.flags.data());
    })) << "segmented_sort_flags_tuned";
  }
}

// point keys tied on x: stability shows in the keys and in the values.
TYPED_TEST(GpuSegmentedSortTuned, Pairs) {
  mergepath::cuda_context ctx;
  for (const segsort_case& c : segsort_cases_in_turn(tuned_sizes<TypeParam>(), gpu_segment_specs(TypeParam::tuning))) {
    SCOPED_TRACE(c.name());
    const std::vector<point> keys = c.keys<point>();
    const std::vector<index_t> heads = c.heads();
    const auto expected = std_segmented_sort_pairs<point, int>(keys, heads, point_x_less{});
    const device_heads d(heads, c.count);
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<point,
                                             int>(ctx, keys, expected, [&](auto& ctx, auto k, auto v, index_t n) {
      mergepath::segmented_sort_pairs<TypeParam>(ctx, k, v, n, d.indices32.data(), d.num_heads, point_x_less{}, &stats);
    }))) << "segmented_sort_pairs_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<point, int>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t n) {
                                                           mergepath::segmented_sort_pairs_flags<TypeParam>(
                                                               ctx, k, v, n, d.flags.data(), point_x_less{});
                                                         })))
        << "segmented_sort_pairs_flags_tuned";
  }
}

TYPED_TEST(GpuSegmentedSortTuned, Locality) {
  mergepath::cuda_context ctx;
  for (const locality_case& c : locality_cases(tuned_sizes<TypeParam>())) {
    SCOPED_TRACE(c.name());
    const std::vector<point> keys = c.keys<point>();
    segsort_stats stats;
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(
        ctx, keys, std_stable_sort(keys, point_x_less{}),
        [&](auto& ctx, auto k, index_t n) { mergepath::locality_sort<TypeParam>(ctx, k, n, point_x_less{}, &stats); }))
        << "locality_sort_tuned";
    ASSERT_TRUE(stats_consistent(stats, c.count, TypeParam::tuning));
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_pairs<point, int>(ctx, keys, std_stable_sort_pairs<point, int>(keys, point_x_less{}),
                                     [](auto& ctx, auto k, auto v, index_t n) {
                                       mergepath::locality_sort_pairs<TypeParam>(ctx, k, v, n, point_x_less{});
                                     })))
        << "locality_sort_pairs_tuned";
  }
}

// ---------------------------------------------------------------------------------------------
// Heads: integer types, iterators, and the bitfield's edges

class GpuSegmentedSortHeads : public gpu_test {};

// int32 heads sort as int64 heads do, at every edge and shape.
TEST_F(GpuSegmentedSortHeads, Int32Heads) {
  mergepath::cuda_context ctx;
  for (const segsort_case& c :
       segsort_cases_in_turn(default_gpu_segsort_sizes<int>(), gpu_segment_specs(default_tuning<int>()))) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const device_heads d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(check_gpu_keys(
        ctx, keys, std_segmented_sort(keys, heads, mergepath::greater<>{}), [&](auto& ctx, auto k, index_t n) {
          mergepath::segmented_sort(ctx, k, n, d.indices32.data(), d.num_heads, mergepath::greater<>{});
        }));
  }
}

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
          (check_gpu_pairs<int, int>(ctx, keys, std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{}),
                                     [&](auto& ctx, auto k, auto v, index_t count) {
                                       mergepath::segmented_sort_pairs(ctx, k, v, count, heads_it, num_heads);
                                     })));
      ctx.set_checked(true);  // the check reads the iterator on the device too
      ASSERT_NO_FATAL_FAILURE(check_gpu_keys(
          ctx, keys, std_segmented_sort(keys, heads, mergepath::less<>{}),
          [&](auto& ctx, auto k, index_t count) { mergepath::segmented_sort(ctx, k, count, heads_it, num_heads); }));
      ctx.set_checked(false);
    }
  }
}

// Element 0 always starts a segment, whether or not bit 0 is set; bits for elements past count
// (the last word's spare bits) mark nothing.
TEST_F(GpuSegmentedSortHeads, FlagsBitZeroAndSpareBits) {
  mergepath::cuda_context ctx;
  const index_t sort_tile = default_tuning<int>().blocksort.tile_items();
  for (const segsort_case& c :
       segsort_cases({33, 1009, 3 * sort_tile + 5, 100003}, {uniform_segments(20), uniform_segments(10000)},
                     {distribution::few_distinct})) {
    SCOPED_TRACE(c.name());
    const std::vector<int> keys = c.keys<int>();
    const std::vector<index_t> heads = c.heads();
    const std::vector<int> expected = std_segmented_sort(keys, heads, mergepath::less<>{});
    std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    ASSERT_NE(c.count % 32, 0) << "the sizes leave spare bits";
    for (int variant = 0; variant < 3; ++variant) {
      SCOPED_TRACE(variant == 0 ? "bit 0 clear" : variant == 1 ? "bit 0 set" : "spare bits set");
      if (variant == 0) flags[0] &= ~1u;
      if (variant == 1) flags[0] |= 1u;
      if (variant == 2) flags.back() |= ~0u << (c.count % 32);
      device_vector<std::uint32_t> d(flags);
      ASSERT_NO_FATAL_FAILURE(check_gpu_keys(ctx, keys, expected, [&](auto& ctx, auto k, index_t n) {
        mergepath::segmented_sort_flags(ctx, k, n, d.data());
      }));
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

  cudaGraph_t graph = nullptr;
  MERGEPATH_CUDA_CHECK(cudaStreamBeginCapture(ctx.stream(), cudaStreamCaptureModeGlobal));
  try {
    mergepath::segmented_sort(ctx, keys.data(), n, heads.data(), num_heads);
    mergepath::locality_sort_pairs(ctx, pair_keys.data(), vals.data(), n, mergepath::greater<>{});
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
    sort_case c{n, d, case_seed({n, static_cast<int>(d), 46})};
    SCOPED_TRACE(c.name());
    std::vector<int> in = make_sort_keys<int>(c);
    std::vector<int> near(in.size());  // (n - i) + rand(0..25): near its place in descending order
    for (index_t i = 0; i < n; ++i)
      near[static_cast<std::size_t>(i)] = static_cast<int>(n - i) + in[static_cast<std::size_t>(i)] % 26;
    std::mt19937_64 rng(c.seed);
    const std::vector<index_t> h = random_heads(n, num_heads, rng);
    // New data and new heads, ordered before the replay on the same stream.
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(keys.data(), in.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(heads.data(), h.data(), num_heads * sizeof(index_t), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(pair_keys.data(), near.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(
        cudaMemcpyAsync(vals.data(), origin.data(), n * sizeof(int), cudaMemcpyHostToDevice, ctx.stream()));
    MERGEPATH_CUDA_CHECK(cudaGraphLaunch(exec, ctx.stream()));
    ctx.synchronize();
    EXPECT_TRUE(ranges_equal(std_segmented_sort(in, h, mergepath::less<>{}), keys.download()));
    auto expected = std_stable_sort_pairs<int, int>(near, mergepath::greater<>{});
    EXPECT_TRUE(ranges_equal(expected.first, pair_keys.download()));
    EXPECT_TRUE(ranges_equal(expected.second, vals.download()));
  }
  MERGEPATH_CUDA_CHECK(cudaGraphExecDestroy(exec));
  MERGEPATH_CUDA_CHECK(cudaGraphDestroy(graph));
}

// ---------------------------------------------------------------------------------------------
// Malformed heads: the set of in-range indices, or std::invalid_argument in checked mode

// Sizes with enough heads (mean length 4) to make every malformation, across blocksort tiles.
std::vector<segsort_case> malformed_cases() {
  const index_t sort_tile = default_tuning<int>().blocksort.tile_items();
  return segsort_cases({33, 1009, 2 * sort_tile + 1, 100003}, {uniform_segments(4)},
                       {distribution::few_distinct, distribution::reversed});
}

std::vector<index_t> malformed_heads(const segsort_case& c, malformation m) {
  std::mt19937_64 rng(case_seed({static_cast<std::int64_t>(c.seed % 1000003), static_cast<int>(m), 47}));
  return malform_heads(c.heads(), c.count, m, rng);
}

class GpuSegmentedSortMalformed : public gpu_test {};

// No fault, and each segment of the in-range heads' set sorted: int64 and int32 heads, keys and
// pairs; the output a permutation of the input, keys still paired with their values.
TEST_F(GpuSegmentedSortMalformed, UncheckedUsesTheSetOfInRangeHeads) {
  mergepath::cuda_context ctx;
  for (const segsort_case& c : malformed_cases()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      ASSERT_GE(first_bad_head(heads, c.count), 0) << "the heads must be malformed";
      const device_heads d(heads, c.count);
      const std::vector<int> keys = c.keys<int>();
      const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});

      device_vector<int> k(keys);
      mergepath::segmented_sort(ctx, k.data(), c.count, d.indices.data(), d.num_heads);
      ctx.synchronize();
      const std::vector<int> got = k.download();
      ASSERT_TRUE(same_keys(keys, got)) << "int64 heads";
      ASSERT_TRUE(ranges_equal(expected.first, got)) << "int64 heads";

      ASSERT_NO_FATAL_FAILURE((check_gpu_pairs<int, int>(ctx, keys, expected,
                                                         [&](auto& ctx, auto k, auto v, index_t n) {
                                                           mergepath::segmented_sort_pairs(
                                                               ctx, k, v, n, d.indices32.data(), d.num_heads);
                                                         })))
          << "int32 heads, pairs";
      device_vector<int> pk(keys), pv(origins<int>(c.count, 0));
      mergepath::segmented_sort_pairs(ctx, pk.data(), pv.data(), c.count, d.indices.data(), d.num_heads);
      ctx.synchronize();
      ASSERT_TRUE(moved_together(keys, pk.download(), pv.download()));
    }
  }
}

// Checked mode names the first bad index and throws before any key or value moves.
TEST_F(GpuSegmentedSortMalformed, CheckedModeThrowsBeforeWriting) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  for (const segsort_case& c : malformed_cases()) {
    for (malformation m : all_malformations()) {
      SCOPED_TRACE(::testing::Message() << c.name() << ", " << to_string(m));
      const std::vector<index_t> heads = malformed_heads(c, m);
      const index_t bad = first_bad_head(heads, c.count);
      ASSERT_GE(bad, 0) << "the heads must be malformed";
      const std::string named =
          "heads[" + std::to_string(bad) + "] = " + std::to_string(heads[static_cast<std::size_t>(bad)]);
      const device_heads d(heads, c.count);
      const std::vector<int> keys = c.keys<int>(), origin = origins<int>(c.count, 0);
      device_vector<int> k(keys), v(origin);
      expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), c.count, d.indices.data(), d.num_heads); },
                              named);
      expect_invalid_argument(
          [&] {
            mergepath::segmented_sort(ctx, k.data(), c.count, d.indices32.data(), d.num_heads, mergepath::greater<>{});
          },
          named);
      expect_invalid_argument(
          [&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.count, d.indices.data(), d.num_heads); },
          named);
      expect_invalid_argument(
          [&] { mergepath::segmented_sort<small_policy>(ctx, k.data(), c.count, d.indices32.data(), d.num_heads); },
          named);
      ctx.synchronize();
      ASSERT_EQ(k.download(), keys);
      ASSERT_EQ(v.download(), origin);
    }
  }
}

// Well-formed heads pass checked mode and sort as usual, the extremes 0 and count - 1 included.
TEST_F(GpuSegmentedSortMalformed, CheckedModeAcceptsWellFormedHeads) {
  mergepath::cuda_context ctx;
  ctx.set_checked(true);
  for (const segsort_case& c :
       segsort_cases({1, 2, 1009, 100003}, gpu_segment_specs(default_tuning<int>()), {distribution::uniform})) {
    SCOPED_TRACE(c.name());
    std::vector<index_t> heads = c.heads();
    if (c.segments.shape == segment_shape::uniform_lengths) {  // the first and the last index too
      if (heads.empty() || heads.front() != 0) heads.insert(heads.begin(), 0);
      if (heads.back() != c.count - 1) heads.push_back(c.count - 1);
    }
    ASSERT_EQ(first_bad_head(heads, c.count), -1);
    const std::vector<int> keys = c.keys<int>();
    const device_heads d(heads, c.count);
    ASSERT_NO_FATAL_FAILURE(
        (check_gpu_pairs<int, int>(ctx, keys, std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{}),
                                   [&](auto& ctx, auto k, auto v, index_t n) {
                                     mergepath::segmented_sort_pairs(ctx, k, v, n, d.indices.data(), d.num_heads);
                                   })));
  }
}

// ---------------------------------------------------------------------------------------------
// Bad arguments: std::invalid_argument before any work (the data stays as it was).

class GpuSegmentedSortArguments : public gpu_test {};

TEST_F(GpuSegmentedSortArguments, BadArgumentsThrowBeforeWriting) {
  mergepath::cuda_context ctx;
  const std::vector<int> unsorted{3, 1, 2};
  device_vector<int> k(unsorted), v(unsorted);
  device_vector<index_t> heads(std::vector<index_t>{0, 2});
  device_vector<std::uint32_t> flags(std::vector<std::uint32_t>{1u});
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;

  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, null, 3, heads.data(), 2); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort(ctx, k.data(), 3, heads.data(), -1); },
                          "heads count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort<small_policy>(ctx, k.data(), -2, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), -1, heads.data(), 2); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, null, v.data(), 3, heads.data(), 2); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), null, 3, heads.data(), 2); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), 3, null_heads, 2); },
                          "heads is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::segmented_sort_pairs<small_policy>(ctx, k.data(), null, 3, heads.data(), 2); },
      "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), -1, flags.data()); },
                          "keys count is negative");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, null, 3, flags.data()); },
                          "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags(ctx, k.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_flags<small_policy>(ctx, k.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), null, 3, flags.data()); },
                          "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), 3, null_flags); },
                          "head_flags is a null pointer");
  expect_invalid_argument(
      [&] { mergepath::segmented_sort_pairs_flags<small_policy>(ctx, null, v.data(), 3, flags.data()); },
      "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, k.data(), -1); }, "keys count is negative");
  expect_invalid_argument([&] { mergepath::locality_sort(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort<small_policy>(ctx, null, 3); }, "keys is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs(ctx, k.data(), null, 3); }, "vals is a null pointer");
  expect_invalid_argument([&] { mergepath::locality_sort_pairs<small_policy>(ctx, k.data(), v.data(), -1); },
                          "keys count is negative");
  ctx.synchronize();
  EXPECT_EQ(k.download(), unsorted);
  EXPECT_EQ(v.download(), unsorted);
}

TEST_F(GpuSegmentedSortArguments, NullPointersWithZeroCountsAreFine) {
  mergepath::cuda_context ctx;
  int* null = nullptr;
  const index_t* null_heads = nullptr;
  const std::uint32_t* null_flags = nullptr;
  EXPECT_NO_THROW(mergepath::segmented_sort(ctx, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs(ctx, null, null, 0, null_heads, 0));
  EXPECT_NO_THROW(mergepath::segmented_sort_flags(ctx, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::segmented_sort_pairs_flags(ctx, null, null, 0, null_flags));
  EXPECT_NO_THROW(mergepath::locality_sort(ctx, null, 0));
  EXPECT_NO_THROW(mergepath::locality_sort_pairs(ctx, null, null, 0));
  ctx.synchronize();
  // No heads (null) with keys: one segment, the whole array.
  device_vector<int> k(std::vector<int>{3, 1, 2});
  mergepath::segmented_sort(ctx, k.data(), 3, null_heads, 0);
  ctx.synchronize();
  EXPECT_EQ(k.download(), (std::vector<int>{1, 2, 3}));
}

}  // namespace
}  // namespace mergepath_test
