// segmented_sort, segmented_sort_pairs, their _flags forms, locality_sort and locality_sort_pairs
// on a host_context: the suites of suites/segmented_sort.hpp on the host's edges, and what only
// the host backend has (head types, iterators and lambdas; empty stats and their printed table;
// comparators that are not orders).
#include <gtest/gtest.h>

#include <deque>
#include <mergepath/mergepath.hpp>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "comparator_fuzz_util.hpp"
#include "suites/segmented_sort.hpp"

namespace mergepath_test {

// The host's edges: the insertion-sort limit (24 keys), the smallest chunk (4096 keys) and the
// long-segment limit (2^15, the shortest segment the host hands to its parallel mergesort).
template <>
struct segsort_edges<host_backend> {
  // Empty, tiny, the insertion-sort limit either side, odd primes: every shape with every key
  // distribution. 2^15 either side and about 10^5: every shape, the distributions in turn. Keys
  // only, segments longer than 2^15 in several chunks, for the parallel mergesort.
  template <class Key, class Value = void>
  static std::vector<segsort_case> cases() {
    std::vector<segsort_case> cases = segsort_cases(small_sizes(), specs());
    for (const segsort_case& c : segsort_cases_in_turn(large_sizes(), specs())) cases.push_back(c);
    if constexpr (std::is_void_v<Value>)
      for (const segsort_case& c :
           segsort_cases({300007}, {uniform_segments(50000)}, {distribution::uniform, distribution::few_distinct}))
        cases.push_back(c);
    return cases;
  }
  template <class Key, class Value = void>
  static std::vector<index_t> sizes() {
    std::vector<index_t> sizes = small_sizes(), large = large_sizes();
    sizes.insert(sizes.end(), large.begin(), large.end());
    return sizes;
  }
  static std::vector<segment_spec> specs() { return segment_specs({24, 4096, 1 << 15}); }
  static std::vector<index_t> across_tiles() { return {(1 << 15) + 1}; }
  using tuned_policy = mergepath::default_tuning;  // taken, and ignored: the host has no tuning

  static std::vector<index_t> small_sizes() { return sorted_unique_capped({0, 1, 2, 3, 17, 24, 25, 33, 1009}); }
  static std::vector<index_t> large_sizes() {
    return sorted_unique_capped({(1 << 15) - 1, 1 << 15, (1 << 15) + 1, 100003});
  }
};

namespace {

INSTANTIATE_TYPED_TEST_SUITE_P(Host, SegmentedSort, on_host<segsort_key_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SegmentedSortPairs, on_host<segsort_pair_cases>);
INSTANTIATE_TYPED_TEST_SUITE_P(Host, SegmentedSortCalls, on_host<>);

index_t size_of(const std::vector<index_t>& heads) { return static_cast<index_t>(heads.size()); }

// uint32 heads, vector iterators for heads, deque iterators for keys, values and heads, and a
// lambda to compare: all sort as the int64 pointers do.
TEST(HostSegmentedSortHeads, IntegerTypesAndIterators) {
  auto by_tens = [](int l, int r) { return l / 10 < r / 10; };  // ties of up to ten keys
  mergepath::host_context ctx(3);
  for (const segsort_case& c : segsort_cases({33, 1009, 100003},
                                             {uniform_segments(20), segments_of(segment_shape::power_law),
                                              segments_of(segment_shape::one_huge), tile_edge_segments({32})},
                                             {distribution::few_distinct})) {
    SCOPED_TRACE(c.name());
    std::vector<int> keys = c.keys<int>();
    for (int& k : keys) k %= 1000;
    const std::vector<index_t> heads = c.heads();
    const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, by_tens);

    std::vector<int> data = keys;
    const std::vector<std::uint32_t> heads_u32 = heads_as<std::uint32_t>(heads);
    mergepath::segmented_sort(ctx, data.data(), c.count, heads_u32.data(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, data)) << "uint32 heads";

    data = keys;
    mergepath::segmented_sort(ctx, data.data(), c.count, heads.cbegin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, data)) << "vector iterator heads";

    std::deque<int> dk(keys.begin(), keys.end());
    const std::deque<int> dh(heads.begin(), heads.end());
    mergepath::segmented_sort(ctx, dk.begin(), c.count, dh.begin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques";

    const std::vector<int> origin = origins<int>(c.count, 0);
    dk.assign(keys.begin(), keys.end());
    std::deque<int> dv(origin.begin(), origin.end());
    mergepath::segmented_sort_pairs(ctx, dk.begin(), dv.begin(), c.count, dh.begin(), size_of(heads), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques, pairs";
    EXPECT_TRUE(ranges_equal(expected.second, std::vector<int>(dv.begin(), dv.end()))) << "deques, pairs";

    const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
    dk.assign(keys.begin(), keys.end());
    dv.assign(origin.begin(), origin.end());
    mergepath::segmented_sort_pairs_flags(ctx, dk.begin(), dv.begin(), c.count, flags.data(), by_tens);
    EXPECT_TRUE(ranges_equal(expected.first, std::vector<int>(dk.begin(), dk.end()))) << "deques, flags";
    EXPECT_TRUE(ranges_equal(expected.second, std::vector<int>(dv.begin(), dv.end()))) << "deques, flags";
  }
}

// ---------------------------------------------------------------------------------------------
// Stats

// The CPU has no merge passes: whatever stats held, they come back with no tiles and no passes,
// and passing them changes nothing in the output.
TEST(HostSegsortStats, ComeBackEmpty) {
  const segsort_case c{100003, distribution::uniform, uniform_segments(300), case_seed({34})};
  SCOPED_TRACE(c.name());
  const std::vector<int> keys = c.keys<int>();
  const std::vector<index_t> heads = c.heads();
  const std::vector<std::uint32_t> flags = head_flags(heads, c.count);
  const auto expected = std_segmented_sort_pairs<int, int>(keys, heads, mergepath::less<>{});
  const auto expected_whole = std_stable_sort_pairs<int, int>(keys, mergepath::less<>{});
  mergepath::host_context ctx(2);
  mergepath::segsort_stats stats;
  auto stale = [&] {
    stats.tiles = 12;
    stats.passes = {{3, 4}, {5, 6}};
    return &stats;
  };
  auto expect_empty = [&](const char* call) {
    EXPECT_EQ(stats.tiles, 0) << call;
    EXPECT_TRUE(stats.passes.empty()) << call;
  };
  const mergepath::less<> less;
  check_sort_against(ctx, keys, expected.first, [&](auto& ctx, int* k, index_t n) {
    mergepath::segmented_sort(ctx, k, n, heads.data(), size_of(heads), less, stale());
  });
  expect_empty("segmented_sort");
  check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, int* k, int* v, index_t n) {
    mergepath::segmented_sort_pairs(ctx, k, v, n, heads.data(), size_of(heads), less, stale());
  });
  expect_empty("segmented_sort_pairs");
  check_sort_against(ctx, keys, expected.first, [&](auto& ctx, int* k, index_t n) {
    mergepath::segmented_sort_flags(ctx, k, n, flags.data(), less, stale());
  });
  expect_empty("segmented_sort_flags");
  check_sort_pairs_against(ctx, keys, expected, [&](auto& ctx, int* k, int* v, index_t n) {
    mergepath::segmented_sort_pairs_flags(ctx, k, v, n, flags.data(), less, stale());
  });
  expect_empty("segmented_sort_pairs_flags");
  check_sort_against(ctx, keys, expected_whole.first,
                [&](auto& ctx, int* k, index_t n) { mergepath::locality_sort(ctx, k, n, less, stale()); });
  expect_empty("locality_sort");
  check_sort_pairs_against(ctx, keys, expected_whole, [&](auto& ctx, int* k, int* v, index_t n) {
    mergepath::locality_sort_pairs(ctx, k, v, n, less, stale());
  });
  expect_empty("locality_sort_pairs");
}

// operator<< prints the verbose table of moderngpu's Segmented Sort and Locality Sort page: its
// "Mean segment length = 300" run, filled in by hand (7103 tiles, 13 passes), must print exactly
// as the page shows it.
TEST(HostSegsortStats, PrintsModerngpusTable) {
  mergepath::segsort_stats stats;
  stats.tiles = 7103;
  stats.passes = {{7098, 5}, {4443, 2658}, {2347, 3409}, {1168, 2275}, {572, 1168}, {302, 572}, {163, 302},
                  {78, 163}, {37, 78},     {18, 37},     {7, 18},      {6, 7},      {2, 6}};
  EXPECT_EQ(stats.total_merge_tiles(), 16241);
  EXPECT_EQ(stats.total_copy_tiles(), 10698);
  const std::string moderngpu_table =
      "                Merge tiles            Copy tiles \n"
      "pass  0:      7098 ( 99.93%)           5 (  0.07%)\n"
      "pass  1:      4443 ( 62.55%)        2658 ( 37.42%)\n"
      "pass  2:      2347 ( 33.04%)        3409 ( 47.99%)\n"
      "pass  3:      1168 ( 16.44%)        2275 ( 32.03%)\n"
      "pass  4:       572 (  8.05%)        1168 ( 16.44%)\n"
      "pass  5:       302 (  4.25%)         572 (  8.05%)\n"
      "pass  6:       163 (  2.29%)         302 (  4.25%)\n"
      "pass  7:        78 (  1.10%)         163 (  2.29%)\n"
      "pass  8:        37 (  0.52%)          78 (  1.10%)\n"
      "pass  9:        18 (  0.25%)          37 (  0.52%)\n"
      "pass 10:         7 (  0.10%)          18 (  0.25%)\n"
      "pass 11:         6 (  0.08%)           7 (  0.10%)\n"
      "pass 12:         2 (  0.03%)           6 (  0.08%)\n"
      "average:      1249 ( 17.59%)         822 ( 11.59%)\n"
      "total  :     16241 (228.65%)       10698 (150.61%)\n";
  std::ostringstream os;
  os << stats;
  EXPECT_EQ(os.str(), moderngpu_table);
}

// Empty stats (the CPU's) print the header and zero rows, without dividing by zero.
TEST(HostSegsortStats, PrintsEmptyStats) {
  std::ostringstream os;
  os << mergepath::segsort_stats{};
  EXPECT_EQ(os.str(),
            "                Merge tiles            Copy tiles \n"
            "average:         0 (  0.00%)           0 (  0.00%)\n"
            "total  :         0 (  0.00%)           0 (  0.00%)\n");
}

// ---------------------------------------------------------------------------------------------
// Comparators that are not strict weak orders: every call returns with each segment's keys
// permuted within it (locality_sort: the whole array's), whatever order it leaves them in.

// Heads at 0, n / 8 and n / 4 and a few more below n / 4: segments for insertion sort, the serial
// merge sort and (n = 65537) one over 2^15 keys for the parallel merge sort.
std::vector<index_t> fuzz_heads(const fuzz_case& c) {
  std::vector<index_t> heads = {0, c.n / 8, c.n / 4};
  std::mt19937_64 rng(c.seed);
  for (int k = 0; k < 20 && c.n > 0; ++k)
    heads.push_back(static_cast<index_t>(rng() % static_cast<std::uint64_t>(c.n / 4 + 1)));
  std::sort(heads.begin(), heads.end());
  heads.erase(std::unique(heads.begin(), heads.end()), heads.end());
  while (!heads.empty() && heads.back() >= c.n) heads.pop_back();
  return heads;
}

// Rows permuted, each staying in its segment.
::testing::AssertionResult permuted_within_segments(const std::vector<double>& keys, const std::vector<index_t>& heads,
                                                    const std::vector<double>& out_keys,
                                                    const std::vector<std::int64_t>& out_rows) {
  if (auto moved = moved_together(keys, out_keys, out_rows); !moved) return moved;
  for (std::size_t k = 0; k < out_rows.size(); ++k) {
    auto segment_of = [&](index_t i) { return std::upper_bound(heads.begin(), heads.end(), i) - heads.begin(); };
    if (segment_of(static_cast<index_t>(k)) != segment_of(out_rows[k]))
      return ::testing::AssertionFailure() << "row " << out_rows[k] << " left its segment for position " << k;
  }
  return ::testing::AssertionSuccess();
}

TEST(HostComparatorFuzz, SegmentedAndLocalitySortsPermuteTheirInput) {
  for (const fuzz_case& c : fuzz_cases(6)) {
    SCOPED_TRACE(::testing::Message() << c);
    mergepath::host_context ctx(c.threads);
    const bad_comp comp{c.order};
    const std::vector<double> keys = fuzz_keys(c, c.n, 0);
    const std::vector<std::int64_t> rows = row_numbers(c.n);
    const std::vector<index_t> heads = fuzz_heads(c);
    const std::vector<std::uint32_t> flags = head_flags(heads, c.n);
    std::vector<double> k = keys;
    std::vector<std::int64_t> v = rows;
    mergepath::segmented_sort_pairs(ctx, k.data(), v.data(), c.n, heads.data(), size_of(heads), comp);
    ASSERT_TRUE(permuted_within_segments(keys, heads, k, v)) << "segmented_sort_pairs";
    k = keys, v = rows;
    mergepath::segmented_sort_pairs_flags(ctx, k.data(), v.data(), c.n, flags.data(), comp);
    ASSERT_TRUE(permuted_within_segments(keys, heads, k, v)) << "segmented_sort_pairs_flags";
    k = keys;
    mergepath::segmented_sort(ctx, k.data(), c.n, heads.data(), size_of(heads), comp);
    ASSERT_TRUE(same_keys(keys, k)) << "segmented_sort";
    k = keys;
    mergepath::segmented_sort_flags(ctx, k.data(), c.n, flags.data(), comp);
    ASSERT_TRUE(same_keys(keys, k)) << "segmented_sort_flags";
    k = keys;
    mergepath::locality_sort(ctx, k.data(), c.n, comp);
    ASSERT_TRUE(same_keys(keys, k)) << "locality_sort";
    k = keys, v = rows;
    mergepath::locality_sort_pairs(ctx, k.data(), v.data(), c.n, comp);
    ASSERT_TRUE(moved_together(keys, k, v)) << "locality_sort_pairs";
  }
}

}  // namespace
}  // namespace mergepath_test
